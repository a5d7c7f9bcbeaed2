import type { AuditAction } from '../../protocol/audit-actions.ts';

/** An audit entry as the Activity page receives it. */
interface Entry {
  action: string;
  subject: string | null;
  /** The subject's name where the server knows it (an API key's name). */
  subjectLabel?: string;
  data: Record<string, unknown>;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
const day = (v: unknown) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)
    ? new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(v))
    : 'none';

const FIELD_NAMES: Record<string, string> = {
  plan: 'plan',
  seats: 'seats',
  paidThrough: 'paid-through date',
  trialEndsAt: 'trial end',
  name: 'firm name',
  brandAccent: 'brand accent',
  alertEmails: 'lead-alert addresses',
  consentVersion: 'consent text',
};

/** "Added domain a.com; removed b.com; seats 3 → 5" from a license.updated before/after diff. */
function licenseChanges(data: Record<string, unknown>): string {
  const before = (data.before ?? {}) as Record<string, unknown>;
  const after = (data.after ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if ('allowedDomains' in after) {
    const was = list(before.allowedDomains);
    const now = list(after.allowedDomains);
    const added = now.filter((d) => !was.includes(d));
    const removed = was.filter((d) => !now.includes(d));
    if (added.length) parts.push(`added domain${added.length > 1 ? 's' : ''} ${added.join(', ')}`);
    if (removed.length) parts.push(`removed domain${removed.length > 1 ? 's' : ''} ${removed.join(', ')}`);
  }
  for (const key of Object.keys(after).filter((k) => k !== 'allowedDomains')) {
    const label = FIELD_NAMES[key] ?? key;
    const show = (v: unknown) => (/At$|Through$/.test(key) ? day(v) : text(v) || 'none');
    parts.push(`${label} ${show(before[key])} → ${show(after[key])}`);
  }
  const released = Array.isArray(data.releasedActivations) ? data.releasedActivations.length : 0;
  if (released) parts.push(`${released} seat${released > 1 ? 's' : ''} released`);
  return parts.length ? parts.join('; ') : 'no visible change';
}

function settingsChanges(data: Record<string, unknown>): string {
  const after = (data.after ?? {}) as Record<string, unknown>;
  const names = Object.keys(after).map((k) => FIELD_NAMES[k] ?? k);
  return names.length ? names.join(', ') : 'settings';
}

/** "events lead.created; turned off" from a webhook.updated before/after diff. */
function webhookChanges(data: Record<string, unknown>): string {
  const after = (data.after ?? {}) as Record<string, unknown>;
  const parts = Object.keys(after).map((key) => {
    if (key === 'disabledAt') return after[key] ? 'turned off' : 'turned back on';
    if (key === 'includeTest')
      return after[key] ? 'now receives test leads' : 'no longer receives test leads';
    if (key === 'events') return `events ${list(after.events).join(', ') || 'all'}`;
    return key;
  });
  return parts.length ? parts.join('; ') : 'no visible change';
}

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

type Describe = (d: Record<string, unknown>, e: Entry) => string;

/**
 * Each audit action in words a firm's office manager reads. A `Record` over every action the
 * server records (protocol/audit-actions.ts), so a new action without words here fails `tsc`.
 */
const LABELS: Record<AuditAction, Describe> = {
  'portal.signed_in': (d) => `Signed in with ${d.method === 'passkey' ? 'a passkey' : 'an e-mail link'}`,
  'portal.signed_out': (d) => (d.device === 'other' ? 'Signed out another device' : 'Signed out'),
  'passkey.added': () => 'Added a passkey',
  'passkey.removed': () => 'Removed a passkey',
  'apikey.created': (d) => `Created API key “${text(d.name)}” (${list(d.scopes).join(', ') || 'admin'})`,
  'apikey.revoked': (_, e) => (e.subjectLabel ? `Revoked API key “${e.subjectLabel}”` : 'Revoked an API key'),
  'account.updated': (d) => `Changed firm settings: ${settingsChanges(d)}`,
  'account.closed': (d) =>
    `Closed the firm’s account (its data is deleted on ${day(d.deleteAfter)} unless svc support restores it)`,
  'account.deleted': () => 'Deleted the firm’s account and all its data',
  'member.invited': (d) => `Invited ${text(d.email)} as ${text(d.role)}`,
  'member.joined': (d) => `Accepted an invitation and joined as ${text(d.role)}`,
  'member.invitation_declined': () => 'Declined an invitation',
  'member.role_changed': (d) => `Changed a member’s role from ${text(d.from)} to ${text(d.to)}`,
  'member.removed': () => 'Removed a member',
  'license.updated': (d) => `Changed a license: ${licenseChanges(d)}`,
  'license.key_rolled': (d) =>
    `Rolled the ${d.kind === 'publishable' ? 'publishable' : 'secret'} license key (old key works until ${day(d.previousKeysEndAt)})`,
  'license.revoked': () => 'Revoked a license',
  'license.billing_synced': (d) =>
    `Billing updated the license (subscription ${text(d.subscriptionStatus) || 'changed'})`,
  'activation.released': (d) => `Released the seat of ${text(d.domain)}`,
  'connect.approved': (d) => `Connected ${text(d.clientId)} on ${text(d.site)}`,
  'code.reused': () => 'A Connect code was used twice and refused; that site must connect again',
  'refresh.reused': () => 'A reused refresh token was refused; that site must connect again',
  'embed.secret_key_in_page': (d) => `A secret license key was found in a web page (${text(d.origin)})`,
  'ceiling.leads_per_day': (d) =>
    `Daily lead figure reached (${text(d.quota)}); further leads stay live, their alerts grouped hourly`,
  'ceiling.sessions_per_minute': () => 'Widget traffic went over the plan’s limit per minute',
  'lead.status_changed': (d) =>
    d.from
      ? `Moved a lead from ${text(d.from)} to ${text(d.status)}${d.lostReason ? ` (${text(d.lostReason).replace(/_/g, ' ')})` : ''}`
      : `Marked a lead as ${text(d.status)}`,
  'lead.note_added': () => 'Wrote a note on a lead',
  'leads.retention_erased': (d) =>
    `Erased ${text(d.leads)} lead${d.leads === 1 ? '' : 's'} not converted within ${text(d.months)} months (retention window)`,
  'lead.released': () => 'Released a lead from quarantine',
  'lead.deleted': () => 'Deleted a person’s lead and its data',
  'subject.exported': (d) => `Exported a person’s data (${text(d.leads)} lead${d.leads === 1 ? '' : 's'})`,
  'leads.exported': (d) => `Exported leads as CSV (${text(d.rows)} row${d.rows === 1 ? '' : 's'})`,
  'webhook.created': (d) => `Added a webhook endpoint (${list(d.events).join(', ') || 'all events'})`,
  'webhook.updated': (d) => `Changed a webhook endpoint: ${webhookChanges(d)}`,
  'webhook.deleted': () => 'Removed a webhook endpoint',
  'webhook.secret_rolled': () => 'Rolled a webhook signing secret',
  'webhook.enabled': () => 'Turned a webhook endpoint back on',
  'webhook.disabled': () => 'A webhook endpoint was turned off after failing for days',
  'webhook.tested': () => 'Sent a test event to a webhook endpoint',
  'webhook.replayed': () => 'Replayed a webhook delivery',
  'destination.created': (d) => `Added a CRM destination (${text(d.vendor)})`,
  'destination.updated': (d) => `Changed a CRM destination (${list(d.fields).join(', ') || 'settings'})`,
  'destination.deleted': (d) => `Removed a CRM destination (${text(d.vendor)})`,
  'destination.credentials_rolled': (d) => `Replaced a CRM destination’s credential (${text(d.vendor)})`,
  'destination.enabled': (d) => `Turned a CRM destination back on (${text(d.vendor)})`,
  'destination.disabled': (d) =>
    d.reason
      ? `A CRM destination was turned off: ${text(d.reason)}`
      : `Turned a CRM destination off (${text(d.vendor)})`,
  'destination.tested': (d) => `Sent a test lead to a CRM destination (${text(d.vendor)})`,
  'destination.deliveries_cancelled': (d) =>
    `Cancelled ${text(d.count)} lead${d.count === 1 ? '' : 's'} that waited 7 days on a disabled CRM destination`,
  'mcp.tool_call': (d) =>
    `An AI assistant ran ${text(d.tool)} (${text(d.rows)} row${d.rows === 1 ? '' : 's'}${d.outcome && d.outcome !== 'ok' ? `, ${text(d.outcome)}` : ''})`,
  'mcp.export_read': (d) =>
    `An AI assistant downloaded ${text(d.kind)}${typeof d.rows === 'number' ? ` (${text(d.rows)} row${d.rows === 1 ? '' : 's'})` : ''}`,
  'mcp_grant.approved': (d) =>
    `Connected the AI app ${text(d.clientName || d.redirectHost)} (${text(d.scopes)})`,
  'mcp_grant.revoked': (d) =>
    `Disconnected the AI app ${text(d.clientName || d.redirectHost)}${d.reason && d.reason !== 'revoked_in_portal' ? ` (${text(d.reason)})` : ''}`,
  'mcp_grant.code_reused': () => 'An AI app’s sign-in code was used twice; that app was disconnected',
  'mcp_grant.refresh_reused': () =>
    'An AI app presented an old refresh token; it was disconnected and must be connected again',
};

const isAuditAction = (action: string): action is AuditAction => Object.hasOwn(LABELS, action);

/** An entry in words; an action this page does not know yet (from a newer server) shows as it is. */
export function describeActivity(e: Entry): string {
  return isAuditAction(e.action) ? LABELS[e.action](e.data, e) : upper(e.action.replace(/[._]/g, ' '));
}
