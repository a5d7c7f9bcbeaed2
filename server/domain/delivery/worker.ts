import type { DeliveryDeps } from './deps.ts';
import { deliverMails } from './mail-worker.ts';
import { runRetention } from './retention.ts';
import { deliverWebhooks } from './webhook-worker.ts';

/** One pass: due webhook attempts, then due mails (alerts, sign-in links). Tests call this with a fake clock. */
export async function runDeliveryOnce(deps: DeliveryDeps): Promise<{ webhooks: number; mails: number }> {
  const webhooks = await deliverWebhooks(deps);
  const mails = (await deliverMails(deps)) + ((await deps.sendPortalMails?.()) ?? 0);
  return { webhooks, mails };
}

export interface DeliveryWorker {
  /**
   * Stops polling and waits for the pass in progress, at most `abandonAfterMs`: past it the pass
   * is abandoned (a receiver or an SMTP server that never answers must not hold up a shutdown).
   * Abandoning is safe: every claim is a lease in the database, which runs out, and another
   * instance or the next start makes the attempt again.
   */
  stop(abandonAfterMs?: number): Promise<void>;
}

/**
 * The background loop `npm start` runs on every instance (they share the work through row locks):
 * polls every `pollMs`, at once again after a busy pass, and runs the retention rules every
 * `retentionEveryMs`. `stop()` waits for the pass in progress.
 */
export function startDeliveryWorker(
  deps: DeliveryDeps,
  opts: { pollMs: number; retentionEveryMs?: number },
): DeliveryWorker {
  const retentionEvery = opts.retentionEveryMs ?? 3_600_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let lastRetention = 0;
  const pass = async () => {
    let busy = false;
    try {
      const done = await runDeliveryOnce(deps);
      busy = done.webhooks + done.mails > 0;
      if (performance.now() - lastRetention >= retentionEvery || lastRetention === 0) {
        lastRetention = performance.now();
        const report = await runRetention(deps);
        deps.logger.info({ retention: report }, 'retention pass');
      }
    } catch (error) {
      // The Error itself: the log serializer keeps its type, code and message (a string was
      // logged as "[non-error value]").
      deps.logger.error({ err: error }, 'delivery pass failed');
    }
    schedule(busy ? 10 : opts.pollMs);
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = pass();
    }, ms);
    timer.unref();
  };
  schedule(0);
  return {
    async stop(abandonAfterMs = Number.POSITIVE_INFINITY) {
      stopped = true;
      clearTimeout(timer);
      let deadline: NodeJS.Timeout | undefined;
      const abandoned = new Promise<boolean>((resolve) => {
        if (Number.isFinite(abandonAfterMs)) deadline = setTimeout(() => resolve(true), abandonAfterMs);
      });
      const gaveUp = await Promise.race([current.then(() => false), abandoned]);
      clearTimeout(deadline);
      if (gaveUp)
        deps.logger.warn(
          { abandonAfterMs },
          'delivery pass abandoned at shutdown; its leases run out and the attempts are made again',
        );
    },
  };
}
