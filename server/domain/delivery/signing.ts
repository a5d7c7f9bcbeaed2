import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The three Standard Webhooks headers. During a secret roll `secrets` holds the new and the old
 * secret and the signature header carries one `v1,…` per secret, space-separated, so a receiver
 * that still has either verifies.
 */
export function signatureHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' '),
  };
}
