import type { DeliveryDeps } from './deps.ts';
import { createFairPool } from './fair-pool.ts';
import { claimMails, deliverMails, dueMailFirms, sendMail } from './mail-worker.ts';
import { runRetention } from './retention.ts';
import { attemptDelivery, claimDeliveries, deliverWebhooks, dueWebhookFirms } from './webhook-worker.ts';

/**
 * One pass: due webhook attempts, then due mails (alerts, sign-in links), each awaited. Tests call
 * this with a fake clock; the running service uses `startDeliveryWorker`.
 */
export async function runDeliveryOnce(deps: DeliveryDeps): Promise<{ webhooks: number; mails: number }> {
  const webhooks = await deliverWebhooks(deps);
  const mails = (await deliverMails(deps)) + ((await deps.sendPortalMails?.()) ?? 0);
  return { webhooks, mails };
}

export interface DeliveryWorker {
  /**
   * Stops claiming and waits for the attempts in flight, at most `abandonAfterMs`: past it they
   * are abandoned (a receiver or an SMTP server that never answers must not hold up a shutdown).
   * Abandoning is safe: every claim is a lease in the database, which runs out, and another
   * instance or the next start makes the attempt again.
   */
  stop(abandonAfterMs?: number): Promise<void>;
}

/** Webhook attempts one instance keeps in flight unless `DeliveryDeps.concurrency` says otherwise. */
const DEFAULT_CONCURRENCY = 16;
/** Alert mails one instance sends at once unless `DeliveryDeps.mailConcurrency` says otherwise. */
const DEFAULT_MAIL_CONCURRENCY = 4;

/**
 * The background work `npm start` runs on every instance (they share it through row locks and
 * leases): two fair pools, one for webhook attempts and one for alert mails, so a silent SMTP
 * server delays no webhook and a silent receiver no mail. Each pool holds at most C attempts, at
 * most max(2, C/4) of them for one firm, hands free slots round-robin to the firms with due work
 * and claims again as soon as an attempt ends (see `createFairPool`). Every `pollMs` both pools
 * look for new work, and the retention rules run every `retentionEveryMs`.
 */
export function startDeliveryWorker(
  deps: DeliveryDeps,
  opts: { pollMs: number; retentionEveryMs?: number },
): DeliveryWorker {
  const retentionEvery = opts.retentionEveryMs ?? 3_600_000;
  const onError = (error: unknown) =>
    // The Error itself: the log serializer keeps its type, code and message.
    deps.logger.error({ err: error }, 'delivery pass failed');
  const webhooks = createFairPool({
    capacity: deps.concurrency ?? DEFAULT_CONCURRENCY,
    dueFirms: (after, exclude, limit) => dueWebhookFirms(deps, after, exclude, limit),
    claim: (accountId, limit) => claimDeliveries(deps, { accountId, limit }),
    run: (delivery) => attemptDelivery(deps, delivery),
    onError,
  });
  const mails = createFairPool({
    capacity: deps.mailConcurrency ?? DEFAULT_MAIL_CONCURRENCY,
    dueFirms: (after, exclude, limit) => dueMailFirms(deps, after, exclude, limit),
    claim: (accountId, limit) => claimMails(deps, { accountId, limit }),
    run: (mail) => sendMail(deps, mail),
    onError,
  });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastRetention = 0;
  let retention: Promise<void> = Promise.resolve();
  const retain = async () => {
    try {
      const report = await runRetention(deps);
      deps.logger.info({ retention: report }, 'retention pass');
    } catch (error) {
      onError(error);
    }
  };
  // Sign-in and invitation mails (queued by the portal so that a request does the same work
  // whatever the address): one batch at a time, beside the two pools.
  let portalMails: Promise<void> = Promise.resolve();
  let portalMailsBusy = false;
  const sendPortalMails = () => {
    if (portalMailsBusy || !deps.sendPortalMails) return;
    portalMailsBusy = true;
    portalMails = deps
      .sendPortalMails()
      .then(() => undefined, onError)
      .finally(() => {
        portalMailsBusy = false;
      });
  };
  const tick = () => {
    if (stopped) return;
    void webhooks.fill();
    void mails.fill();
    sendPortalMails();
    if (lastRetention === 0 || performance.now() - lastRetention >= retentionEvery) {
      lastRetention = performance.now();
      retention = retain();
    }
    timer = setTimeout(tick, opts.pollMs);
    timer.unref();
  };
  timer = setTimeout(tick, 0);
  timer.unref();
  return {
    async stop(abandonAfterMs = Number.POSITIVE_INFINITY) {
      stopped = true;
      clearTimeout(timer);
      webhooks.close();
      mails.close();
      let deadline: NodeJS.Timeout | undefined;
      const abandoned = new Promise<boolean>((resolve) => {
        if (Number.isFinite(abandonAfterMs)) deadline = setTimeout(() => resolve(true), abandonAfterMs);
      });
      const drained = Promise.all([webhooks.idle(), mails.idle(), retention, portalMails]).then(() => false);
      const gaveUp = await Promise.race([drained, abandoned]);
      clearTimeout(deadline);
      if (gaveUp)
        deps.logger.warn(
          { abandonAfterMs, inFlight: webhooks.inFlight() + mails.inFlight() },
          'delivery attempts abandoned at shutdown; their leases run out and they are made again',
        );
    },
  };
}
