#!/usr/bin/env node
// `npm run test:wordpress`: the WordPress plugin against a real WordPress (Debian's `wordpress`
// package, PHP's built-in server, MariaDB) and the real svc stack. Not part of `npm test`;
// .ci/run calls it after `npm test` (with .ci/wordpress-deps.sh first).
// In CI (CI=true) a missing prerequisite fails the run; locally it says loudly what it skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const started = Date.now();
const has = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

const missing = [];
if (!existsSync('/usr/share/wordpress/wp-load.php')) missing.push('Debian package wordpress');
for (const [bin, pkg] of [
  ['php', 'php-cli'],
  ['phpunit', 'phpunit'],
  ['mariadb', 'mariadb-client'],
  ['zip', 'zip'],
])
  if (!has(bin)) missing.push(`${bin} (${pkg})`);
if (
  missing.length === 0 &&
  spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-e', 'SELECT 1']).status !== 0
)
  missing.push('MariaDB at 127.0.0.1:3306 (root, no password)');
if (missing.length > 0) {
  const line = `WordPress suite SKIPPED: missing ${missing.join(', ')}. Run .ci/wordpress-deps.sh.`;
  console.error(`\n${'!'.repeat(line.length)}\n${line}\n${'!'.repeat(line.length)}\n`);
  process.exit(ci ? 1 : 0);
}

const version = /\$wp_version = '([^']+)'/.exec(
  readFileSync('/usr/share/wordpress/wp-includes/version.php', 'utf8'),
)?.[1];
console.log(
  `WordPress ${version}, ${execFileSync('php', ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8' })} (PHP)`,
);

const step = (name, cmd, args) => {
  const t = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  console.log(`${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  if (result.status !== 0) {
    console.error(`${name} failed.`);
    process.exit(result.status ?? 1);
  }
};

step('PHPUnit (pure functions)', 'phpunit', [
  '--do-not-cache-result',
  '--bootstrap',
  'plugins/wordpress/tests/unit/bootstrap.php',
  'plugins/wordpress/tests/unit',
]);
// The suite drives the built loader, widget and portal: build them from this checkout.
step('build (embed, portal, plugin zip)', 'sh', [
  '-c',
  'npm run build:embed --silent && npm run build:portal --silent && node scripts/build-wordpress.mjs',
]);
step('WordPress end to end (with the PHPUnit integration suite)', 'npx', [
  'vitest',
  'run',
  '-c',
  'vitest.wordpress.config.ts',
]);
console.log(
  `WordPress suite passed on WordPress ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
