import type { z } from 'zod';
import type { CrmLead } from './crm-note.ts';

/** The CRMs a destination can deliver to (Lead Docket: see docs/destinations.md). */
export const DESTINATION_VENDORS = ['clio-grow', 'hubspot', 'salesforce', 'wealthbox'] as const;
export type DestinationVendor = (typeof DESTINATION_VENDORS)[number];

/** One HTTP request to a vendor, before the address guard and `DESTINATION_BASE_URLS` apply. */
export interface VendorRequest {
  url: string;
  contentType: string;
  headers: Record<string, string>;
  body: string;
}

/** What a vendor's answer means for the delivery. */
export type VendorVerdict =
  | { kind: 'delivered' }
  /** 401/403: the credential was refused; the destination is disabled at once. */
  | { kind: 'credential_refused'; message: string }
  /** Another 4xx: the vendor refused this lead; not retried, its message goes in the log. */
  | { kind: 'rejected'; message: string }
  /** 429, 5xx, no answer: tried again, not before `retryAfterMs` when the vendor said so. */
  | { kind: 'retry'; message: string; retryAfterMs: number | null };

/**
 * A CRM connector, written from the vendor's public documentation (each file cites its pages). It
 * declares the settings a firm gives (validated with `settings`; the credential apart, encrypted),
 * builds the one request that delivers a lead, and reads the vendor's answer.
 */
export interface Connector<S = Record<string, unknown>> {
  vendor: DestinationVendor;
  /** The CRM's name as a firm knows it. */
  label: string;
  /** The vendor's documentation this connector follows. */
  docs: readonly string[];
  /** The credential's name in the vendor's words, and where the firm finds it. */
  credential: { label: string; where: string };
  /** The non-secret settings; `parse` answers the normalised settings or throws a ZodError. */
  settings: z.ZodType<S>;
  /** Each setting, where the firm finds it (portal and docs). */
  settingHelp: Readonly<Record<string, string>>;
  /** Whether the firm may map figures to its own fields (and what a field is called there). */
  customFields: { label: string } | null;
  /** The vendor's address for these settings (always the vendor's host). */
  url(settings: S): string;
  build(lead: CrmLead, settings: S, credential: string): VendorRequest;
  /** Reads a non-2xx answer's body for the vendor's own message (shown in the delivery log). */
  messageOf(status: number, body: string): string;
}

/** Retry-After as milliseconds: seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** The verdict for an HTTP status (or none), the same for every vendor. */
export function verdictOf(
  connector: Pick<Connector, 'messageOf'>,
  answer: { statusCode: number | null; error: string | null; body: string; retryAfter?: string | string[] },
  now: Date,
): VendorVerdict {
  const { statusCode: status } = answer;
  if (status === null) return { kind: 'retry', message: answer.error ?? 'no answer', retryAfterMs: null };
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const message = connector.messageOf(status, answer.body) || `HTTP ${status}`;
  if (status === 401 || status === 403) return { kind: 'credential_refused', message };
  if (status === 429 || status >= 500 || status === 408)
    return { kind: 'retry', message, retryAfterMs: retryAfterMs(answer.retryAfter, now) };
  return { kind: 'rejected', message };
}

/** The first readable message in a JSON error body: `message`, `error`, `errors[0].message`…; else the text. */
export function jsonMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const errors = parsed.errors;
    const first = Array.isArray(errors)
      ? errors
          .map((e) => (typeof e === 'string' ? e : (e as { message?: unknown })?.message))
          .filter((m): m is string => typeof m === 'string')
      : errors && typeof errors === 'object'
        ? Object.entries(errors as Record<string, unknown>).map(
            ([k, v]) => `${k} ${Array.isArray(v) ? v.join(', ') : String(v)}`,
          )
        : [];
    const head = [parsed.message, parsed.error].find((m): m is string => typeof m === 'string');
    return [head, ...first].filter(Boolean).join(': ').slice(0, 500);
  } catch {
    return body.trim().slice(0, 500);
  }
}
