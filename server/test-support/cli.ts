import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI (`npm run svc -- …` without npm) as its own process on `dataDir`'s embedded
 * database, for exit codes and what a person sees; `env` adds or overrides variables.
 */
export async function runCli(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', ...args],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
