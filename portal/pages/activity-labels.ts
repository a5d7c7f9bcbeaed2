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

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Each audit action in words a firm's office manager reads; unknown actions show as they are. */
export function describeActivity(e: Entry): string {
  const d = e.data;
  switch (e.action) {
    case 'portal.signed_in':
      return `Signed in with ${d.method === 'passkey' ? 'a passkey' : 'an e-mail link'}`;
    case 'portal.signed_out':
      return d.device === 'other' ? 'Signed out another device' : 'Signed out';
    case 'passkey.added':
      return 'Added a passkey';
    case 'passkey.removed':
      return 'Removed a passkey';
    case 'apikey.created':
      return `Created API key “${text(d.name)}” (${list(d.scopes).join(', ') || 'admin'})`;
    case 'apikey.revoked':
      return e.subjectLabel ? `Revoked API key “${e.subjectLabel}”` : 'Revoked an API key';
    case 'license.updated':
      return `Changed a license: ${licenseChanges(d)}`;
    case 'license.key_rolled':
      return `Rolled the ${d.kind === 'publishable' ? 'publishable' : 'secret'} license key (old key works until ${day(d.previousKeysEndAt)})`;
    case 'license.revoked':
      return 'Revoked a license';
    case 'license.billing_synced':
      return `Billing updated the license (subscription ${text(d.subscriptionStatus) || 'changed'})`;
    case 'activation.released':
      return `Released the seat of ${text(d.domain)}`;
    case 'connect.approved':
      return `Connected ${text(d.clientId)} on ${text(d.site)}`;
    case 'lead.status_changed':
      return d.from
        ? `Moved a lead from ${text(d.from)} to ${text(d.status)}`
        : `Marked a lead as ${text(d.status)}`;
    case 'lead.released':
      return 'Released a lead from quarantine';
    case 'lead.deleted':
      return 'Deleted a person’s lead and its data';
    case 'subject.exported':
      return `Exported a person’s data (${text(d.leads)} lead${d.leads === 1 ? '' : 's'})`;
    case 'leads.exported':
      return `Exported leads as CSV (${text(d.rows)} row${d.rows === 1 ? '' : 's'})`;
    case 'member.invited':
      return `Invited ${text(d.email)} as ${text(d.role)}`;
    case 'member.joined':
      return `Accepted an invitation and joined as ${text(d.role)}`;
    case 'member.invitation_declined':
      return 'Declined an invitation';
    case 'member.role_changed':
      return `Changed a member’s role from ${text(d.from)} to ${text(d.to)}`;
    case 'member.removed':
      return 'Removed a member';
    case 'account.updated':
      return `Changed firm settings: ${settingsChanges(d)}`;
    case 'webhook.created':
      return `Added a webhook endpoint (${list(d.events).join(', ') || 'all events'})`;
    case 'webhook.deleted':
      return 'Removed a webhook endpoint';
    case 'webhook.secret_rolled':
      return 'Rolled a webhook signing secret';
    case 'webhook.enabled':
      return 'Turned a webhook endpoint back on';
    case 'webhook.disabled':
      return 'A webhook endpoint was turned off after failing for days';
    case 'webhook.replayed':
      return 'Replayed a webhook delivery';
    case 'mcp.tool_call':
      return `An AI assistant ran ${text(d.tool)} (${text(d.rows)} row${d.rows === 1 ? '' : 's'}${d.outcome && d.outcome !== 'ok' ? `, ${text(d.outcome)}` : ''})`;
    case 'ceiling.leads_per_day':
      return `Daily lead figure reached (${text(d.quota)}); further leads stay live, their alerts grouped hourly`;
    case 'ceiling.sessions_per_minute':
      return 'Widget traffic went over the plan’s limit per minute';
    case 'refresh.reused':
      return 'A reused refresh token was refused; that site must connect again';
    case 'embed.secret_key_in_page':
      return `A secret license key was found in a web page (${text(d.origin)})`;
    default:
      return upper(e.action.replace(/[._]/g, ' '));
  }
}
