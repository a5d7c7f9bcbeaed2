import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { compiledArgs } from './compiled-server.ts';
import { startFromTemplate } from './pglite-template.ts';

const run = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI (`npm run svc -- …` without npm) as its own process on `dataDir`'s embedded
 * database, for exit codes and what a person sees; `env` adds or overrides variables. A data
 * directory without a database gets a copy of the migrated template first, as servers in tests
 * do: initdb and the migrations would cost each test six seconds more, and are tested in server/db.
 * `fromTemplate: false` leaves an empty directory empty (a restore into nothing).
 */
export async function runCli(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
  { fromTemplate = true, cwd }: { fromTemplate?: boolean; cwd?: string } = {},
): Promise<CliRun> {
  if (fromTemplate && !env.DATABASE_URL) startFromTemplate(dataDir);
  const processEnv: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'silent',
    ...env,
  };
  // `DATA_DIR: ''` runs the CLI as a person who did not set it (the default, ./data in `cwd`).
  if (processEnv.DATA_DIR === '') delete processEnv.DATA_DIR;
  try {
    const { stdout, stderr } = await run(process.execPath, [...compiledArgs('server/cli/main.ts'), ...args], {
      env: processEnv,
      ...(cwd ? { cwd } : {}),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
