import type { AuditAction } from '../../../protocol/audit-actions.ts';

/**
 * The Activity page's filter: each kind a person can pick and the audit actions it covers. An
 * action not listed here still shows under "All".
 */
export const ACTIVITY_KINDS = {
  'sign-ins': ['portal.signed_in', 'portal.signed_out', 'passkey.added', 'passkey.removed'],
  'api-keys': ['apikey.created', 'apikey.revoked'],
  licenses: [
    'license.updated',
    'license.key_rolled',
    'license.revoked',
    'license.billing_synced',
    'activation.released',
  ],
  connect: ['connect.approved'],
  leads: [
    'lead.status_changed',
    'lead.note_added',
    'lead.released',
    'lead.deleted',
    'leads.retention_erased',
    'subject.exported',
    'leads.exported',
    'mcp.export_read',
  ],
  members: [
    'member.invited',
    'member.joined',
    'member.invitation_declined',
    'member.role_changed',
    'member.removed',
  ],
  settings: [
    'account.updated',
    'webhook.created',
    'webhook.deleted',
    'webhook.secret_rolled',
    'webhook.enabled',
    'webhook.disabled',
    'webhook.replayed',
    'destination.created',
    'destination.updated',
    'destination.deleted',
    'destination.credentials_rolled',
    'destination.enabled',
    'destination.disabled',
    'destination.deliveries_cancelled',
  ],
  'ai-tools': [
    'mcp.tool_call',
    'mcp.export_read',
    'mcp_grant.approved',
    'mcp_grant.revoked',
    'mcp_grant.code_reused',
    'mcp_grant.refresh_reused',
  ],
  alerts: [
    'ceiling.leads_per_day',
    'ceiling.sessions_per_minute',
    'refresh.reused',
    'embed.secret_key_in_page',
  ],
} as const satisfies Record<string, readonly AuditAction[]>;

export type ActivityKind = keyof typeof ACTIVITY_KINDS;
export const ACTIVITY_KIND_NAMES = Object.keys(ACTIVITY_KINDS) as [ActivityKind, ...ActivityKind[]];
