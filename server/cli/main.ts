import { ConfigError, loadConfig } from '../infra/env.ts';
import { connectAdmin } from './admin-transport.ts';
import { BACKUP_USAGE, runBackupCommand } from './backup-commands.ts';
import { parseCli, toRequest, USAGE, UsageError } from './commands.ts';
import { rotateSecrets, SECRETS_USAGE } from './secrets-commands.ts';

/** `npm run svc -- <command>`: exits 0 on success, 1 with one clear line on any error, 2 on bad usage. */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCli>;
  let req: ReturnType<typeof toRequest> | undefined;
  let backupCall: { verb: 'backup' | 'restore'; file: string } | undefined;
  let secretsCall = false;
  try {
    parsed = parseCli(argv);
    if (parsed.help || parsed.positionals.length === 0) {
      console.log(`${USAGE}\n\n${BACKUP_USAGE}\n${SECRETS_USAGE}`);
      return parsed.help ? 0 : 2;
    }
    const [verb, file] = parsed.positionals;
    if (verb === 'secrets') {
      if (file !== 'rotate' || parsed.positionals.length > 2) throw new UsageError('secrets needs: rotate');
      secretsCall = true;
    } else if (verb === 'backup' || verb === 'restore') {
      if (!file) throw new UsageError(`${verb} needs a FILE`);
      backupCall = { verb, file };
    } else req = toRequest(parsed.positionals, parsed.values);
  } catch (error) {
    console.error(`svc: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (secretsCall) {
    console.log(await rotateSecrets(loadConfig()));
    return 0;
  }
  if (backupCall) {
    console.log(await runBackupCommand(loadConfig(), backupCall.verb, backupCall.file));
    return 0;
  }
  if (!req) return 2;
  const admin = await connectAdmin(loadConfig(), { discover: !process.env.DATA_DIR });
  try {
    const { status, body } = await admin.call(req.method, req.path, req.body);
    if (status >= 400) {
      const error = body.error as {
        code: string;
        message: string;
        details?: { path: string; message: string }[];
      };
      const detail = error.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
      console.error(
        parsed.json
          ? JSON.stringify(body)
          : `svc: ${error.message}${detail ? ` (${detail})` : ''} [${error.code}]`,
      );
      // Nothing found: say where it looked, and how to look elsewhere.
      if (status === 404 && !parsed.json)
        console.error(
          `svc: asked ${admin.where}. If the server runs with another DATA_DIR, set DATA_DIR to it (or run this from the checkout that started it).`,
        );
      return 1;
    }
    console.log(parsed.json ? JSON.stringify(body, null, 2) : req.render(body));
    return 0;
  } finally {
    await admin.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message =
      error instanceof ConfigError || error instanceof UsageError || error instanceof Error
        ? error.message
        : String(error);
    console.error(`svc: ${message}`);
    process.exit(1);
  },
);
