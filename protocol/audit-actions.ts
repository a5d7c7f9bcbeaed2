/**
 * Every action the audit log records, by subject. The server's `recordAudit` takes nothing else,
 * and the portal's Activity page keeps a label for each (a `Record<AuditAction, …>`), so an action
 * added here without words a firm can read fails `tsc`. Stored rows keep their text: never rename
 * an action, add a new one.
 */
const AUDIT_ACTIONS = [
  'portal.signed_in',
  'portal.signed_out',
  'passkey.added',
  'passkey.removed',
  'apikey.created',
  'apikey.revoked',
  'account.updated',
  'account.closed',
  'account.deleted',
  'member.invited',
  'member.joined',
  'member.invitation_declined',
  'member.role_changed',
  'member.removed',
  'license.updated',
  'license.key_rolled',
  'license.revoked',
  'license.billing_synced',
  'activation.released',
  'connect.approved',
  'code.reused',
  'refresh.reused',
  'embed.secret_key_in_page',
  'ceiling.leads_per_day',
  'ceiling.sessions_per_minute',
  'lead.status_changed',
  'lead.released',
  'lead.deleted',
  'subject.exported',
  'leads.exported',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rolled',
  'webhook.enabled',
  'webhook.disabled',
  'webhook.tested',
  'webhook.replayed',
  'mcp.tool_call',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
