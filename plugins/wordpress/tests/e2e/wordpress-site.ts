import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's WordPress (apt `wordpress`), copied fresh for every run. */
const WORDPRESS_SOURCE = '/usr/share/wordpress';
const DB = ['-h', '127.0.0.1', '-P', '3306', '-u', 'root'];

export function wordpressVersion(root = WORDPRESS_SOURCE): string {
  return /\$wp_version = '([^']+)'/.exec(readFileSync(`${root}/wp-includes/version.php`, 'utf8'))?.[1] ?? '?';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface WordPressSite {
  url: string;
  root: string;
  database: string;
  admin: { user: string; password: string };
  debugLog: string;
  /** Runs PHP with WordPress loaded (php-cli) and answers its output. */
  run(code: string): string;
  close(): Promise<void>;
}

/**
 * A fresh WordPress: a copy of Debian's, its own database, PHP's built-in server with four
 * workers on an OS-chosen port (one worker deadlocks on WordPress's requests to itself),
 * installed headlessly. `close` kills the server with its workers and drops the database.
 */
export async function startWordPress(constants: Record<string, string>): Promise<WordPressSite> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wp-'));
  const root = join(dir, 'site');
  cpSync(WORDPRESS_SOURCE, root, { recursive: true, dereference: true });
  rmSync(join(root, '.htaccess'), { force: true });
  rmSync(join(root, 'wp-config.php'), { force: true });
  const database = `svc_wp_${randomBytes(6).toString('hex')}`;
  const dbPassword = randomBytes(12).toString('hex');
  execFileSync('mariadb', [
    ...DB,
    '-e',
    `CREATE DATABASE ${database}; CREATE USER '${database}'@'127.0.0.1' IDENTIFIED BY '${dbPassword}'; GRANT ALL ON ${database}.* TO '${database}'@'127.0.0.1';`,
  ]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const debugLog = join(dir, 'debug.log');
  const salts = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT']
    .concat(['LOGGED_IN_SALT', 'NONCE_SALT'])
    .map((name) => `define('${name}', '${randomBytes(32).toString('hex')}');`)
    .join('\n');
  const extra = Object.entries(constants)
    .map(([k, v]) => `define('${k}', ${php(v)});`)
    .join('\n');
  writeFileSync(
    join(root, 'wp-config.php'),
    `<?php
define('DB_NAME', '${database}');
define('DB_USER', '${database}');
define('DB_PASSWORD', '${dbPassword}');
define('DB_HOST', '127.0.0.1:3306');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${salts}
$table_prefix = 'wp_';
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_DEBUG', true);
define('WP_DEBUG_LOG', ${php(debugLog)});
define('WP_DEBUG_DISPLAY', false);
${extra}
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
  );
  writeFileSync(
    join(dir, 'router.php'),
    `<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ($path !== '/' && file_exists($file) && !is_dir($file)) return false;
if (is_dir($file) && file_exists(rtrim($file, '/') . '/index.php')) { require rtrim($file, '/') . '/index.php'; return; }
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
`,
  );
  const server: ChildProcess = spawn(
    'php',
    ['-S', `127.0.0.1:${port}`, '-t', root, join(dir, 'router.php')],
    {
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: 'ignore',
      detached: true,
    },
  );
  const close = async () => {
    // The workers are the server's children; its own process group holds them all.
    if (server.pid && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    try {
      execFileSync('mariadb', [
        ...DB,
        '-e',
        `DROP DATABASE IF EXISTS ${database}; DROP USER IF EXISTS '${database}'@'127.0.0.1';`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await waitForHttp(`${url}/wp-admin/install.php`);
    const admin = { user: 'firmadmin', password: randomBytes(12).toString('hex') };
    const installed = await fetch(`${url}/wp-admin/install.php?step=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        weblog_title: 'Smith & Partners Estate Law',
        user_name: admin.user,
        admin_password: admin.password,
        admin_password2: admin.password,
        pw_weak: '1',
        admin_email: 'office@smithlaw.example',
        blog_public: '0',
      }),
    });
    if (!(await installed.text()).includes('<h1>Success!</h1>')) throw new Error('WordPress did not install');
    const run = (code: string) => {
      const script = join(dir, `run-${randomBytes(4).toString('hex')}.php`);
      writeFileSync(
        script,
        `<?php\n$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';\nrequire ${php(`${root}/wp-load.php`)};\n${code}\n`,
      );
      try {
        return execFileSync('php', [script], { encoding: 'utf8' });
      } finally {
        rmSync(script, { force: true });
      }
    };
    // No gravatar requests from the browser (the suite runs offline).
    run("update_option('show_avatars', 0);");
    // A calm dashboard for the screenshots: no welcome panel, no news feed (it would go online).
    run(
      "update_user_meta(1, 'show_welcome_panel', 0); update_user_meta(1, 'metaboxhidden_dashboard', array('dashboard_primary', 'dashboard_quick_press', 'dashboard_site_health'));",
    );
    return { url, root, database, admin, debugLog, run, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function waitForHttp(url: string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
