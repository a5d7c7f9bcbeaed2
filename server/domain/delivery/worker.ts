import type { DeliveryDeps } from './deps.ts';
import { deliverMails } from './mail-worker.ts';
import { runRetention } from './retention.ts';
import { deliverWebhooks } from './webhook-worker.ts';

/** One pass: due webhook attempts, then due mails. Tests call this with a fake clock. */
export async function runDeliveryOnce(deps: DeliveryDeps): Promise<{ webhooks: number; mails: number }> {
  const webhooks = await deliverWebhooks(deps);
  const mails = await deliverMails(deps);
  return { webhooks, mails };
}

export interface DeliveryWorker {
  stop(): Promise<void>;
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
      deps.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'delivery pass failed',
      );
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
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
