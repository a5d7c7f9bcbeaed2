import { z } from '@hono/zod-openapi';
import { FirmContactSchema } from '../../contracts/firm-contact.ts';
import { FunnelSchema } from '../../contracts/funnel.ts';
import { LeadSchema } from '../../contracts/lead.ts';
import { SCOPES } from '../../domain/activation/token-set.ts';
import { API_KEY_SCOPES } from '../../domain/credentials/scopes.ts';
import { Iso } from '../schemas.ts';
import {
  ActivationReleased,
  Deleted,
  DeliveryAttempt,
  DeliveryQueued,
  IsoOrNull,
  LicenseDetail,
  SubjectExport,
  WebhookDelivery,
  WebhookEndpoint,
} from '../shared-schemas.ts';

/**
 * What every portal route answers, one schema each: the routes declare them (so `tsc` holds a
 * handler to its answer and the API document shows it), and the portal app reads their inferred
 * types from types.ts. A field changed here fails the portal's build, not its screens.
 */

const Role = z.enum(['owner', 'admin', 'viewer']);
const Day = z.string().openapi({ format: 'date', example: '2026-05-31' });
const LeadStatus = z.enum(['new', 'contacted', 'converted', 'lost']);

/** The answers of actions with nothing more to say than that they happened. */
export const SignedOut = z.object({ signedOut: z.literal(true) });
export const Switched = z.object({ switched: z.literal(true) });
export const Revoked = z.object({ revoked: z.literal(true) });
export const Removed = z.object({ removed: z.literal(true) });
export const Changed = z.object({ changed: z.literal(true) });

/** A domain as stored (ASCII, punycode) and as people read it (Unicode). */
const DomainName = z.object({ ascii: z.string(), unicode: z.string() }).openapi('PortalDomain');

// --- Signing in (no session yet) ------------------------------------------------------------

export const LinkSent = z.object({ sent: z.literal(true) });
/** Where the browser goes after signing in (a portal path), or null for the start page. */
export const SignedIn = z.object({ next: z.string().nullable() });
export const InvitationOffer = z.object({
  firmName: z.string(),
  role: Role,
  email: z.string(),
  expiresAt: Iso,
});
export const Declined = z.object({ declined: z.literal(true) });

// --- The session and the person's own things -------------------------------------------------

export const PortalSession = z
  .object({
    user: z.object({ id: z.string(), email: z.string() }),
    firm: z.object({ id: z.string(), name: z.string(), role: Role }),
    firms: z.array(z.object({ id: z.string(), name: z.string(), role: Role })),
    csrfToken: z.string().openapi({ description: 'Send it as `X-CSRF-Token` with every write' }),
    urls: z.object({ api: z.string(), mcp: z.string(), embed: z.string(), portal: z.string() }),
  })
  .openapi('PortalSession');

export const SessionRow = z.object({
  id: z.string(),
  method: z.enum(['magic_link', 'passkey']),
  userAgent: z.string().nullable(),
  createdAt: Iso,
  lastSeenAt: Iso,
  expiresAt: Iso,
  current: z.boolean(),
});
export const SessionList = z.object({ data: z.array(SessionRow) });

export const Passkey = z.object({ id: z.string(), name: z.string(), createdAt: Iso, lastUsedAt: IsoOrNull });
export const PasskeyList = z.object({ data: z.array(Passkey) });
export const AddedPasskey = z.object({ passkey: Passkey });
/** WebAuthn options as @simplewebauthn builds them, handed to the browser unchanged. */
const webAuthnOptions = (description: string) =>
  z.object({ challengeId: z.string(), options: z.record(z.string(), z.unknown()).openapi({ description }) });
export const PasskeyRegistrationOptions = webAuthnOptions('PublicKeyCredentialCreationOptionsJSON');
export const PasskeySignInOptions = webAuthnOptions('PublicKeyCredentialRequestOptionsJSON');

// --- Licenses ----------------------------------------------------------------------------------

const PortalActivation = z.object({
  id: z.string(),
  domain: DomainName,
  env: z.enum(['prod', 'dev']),
  firstSeenAt: IsoOrNull,
  lastSeenAt: IsoOrNull,
});

export const PortalLicense = z
  .object({
    id: z.string(),
    plan: z.string(),
    status: z.enum(['trial', 'active', 'grace', 'expired', 'revoked']),
    seats: z.number().int(),
    seatsUsed: z.number().int(),
    keyLast4: z.string(),
    publishableKey: z.string().nullable().openapi({ description: 'The loader’s data-key (public)' }),
    overlappingKeys: z
      .array(z.object({ kind: z.enum(['publishable', 'secret']), last4: z.string(), expiresAt: Iso }))
      .openapi({ description: 'Rolled keys that still work until their overlap ends' }),
    next: z.string().openapi({ description: 'What happens next, in one sentence' }),
    renewsAt: IsoOrNull,
    cancelAt: IsoOrNull,
    domains: z.array(DomainName),
    trialEndsAt: IsoOrNull,
    paidThrough: IsoOrNull,
    graceEndsAt: IsoOrNull,
    expiresAt: IsoOrNull,
    revokedAt: IsoOrNull,
    createdAt: IsoOrNull,
    activations: z
      .array(PortalActivation)
      .optional()
      .openapi({ description: 'Live sites (not on Overview)' }),
  })
  .openapi('PortalLicense');
export const LicenseList = z.object({ data: z.array(PortalLicense) });
export const OneLicense = z.object({ license: PortalLicense });

/** A license as the operator's `license show` prints it: what a domain change or a release answers. */
export const ChangedLicense = LicenseDetail;
export const ReleasedSeat = ActivationReleased;

export const RolledKey = z.object({
  kind: z.enum(['publishable', 'secret']),
  key: z.string().openapi({ description: 'The new key, in this answer only' }),
  previousKeysEndAt: Iso,
});

export const BillingOptions = z.object({
  checkout: z.boolean().openapi({ description: 'Whether Stripe Checkout is available' }),
  plans: z.array(z.string()),
});
export const BrowserTo = z.object({ url: z.string(), expiresAt: Iso.optional() });
export const CheckoutTo = z.object({ url: z.string(), id: z.string() });

// --- Leads ---------------------------------------------------------------------------------------

/** A lead as the portal shows it: the same shape as the firm's API answers (`Lead`). */
export const PortalLead = LeadSchema;

export const LeadPage = z.object({
  data: z.array(PortalLead),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
  totalCapped: z.boolean().openapi({ description: 'The count stopped at its cap: there are more' }),
  hiddenTest: z.number().int().openapi({ description: 'Test-mode leads these filters leave out' }),
});
export const OneLead = z.object({ lead: PortalLead });

export const LeadNote = z
  .object({ id: z.string(), author: z.string(), text: z.string(), createdAt: Iso })
  .openapi('LeadNote');
export const LeadNotes = z.object({ notes: z.array(LeadNote) });
export const OneNote = z.object({ note: LeadNote });

const Figure = z.object({ label: z.string(), value: z.string() });
export const LeadDetail = z.object({
  lead: PortalLead,
  nextStatuses: z.array(LeadStatus),
  notes: z.array(LeadNote),
  /** Owners and admins write notes and change the status; viewers read. */
  canWrite: z.boolean(),
  result: z
    .object({
      id: z.string(),
      calculator: z.string(),
      state: z.string().nullable(),
      createdAt: Iso,
      inputs: z.array(Figure),
      outputs: z.array(Figure),
      rules: z
        .object({
          id: z.string(),
          label: z.string(),
          taxYear: z.number().int().nullable(),
          effectiveDate: z.string().nullable(),
        })
        .nullable()
        .openapi({
          description:
            'The rule set the result was computed with, as stored: never recomputed when the rules change later',
        }),
    })
    .nullable(),
});

export const LeadChart = z.object({
  from: Day,
  to: Day,
  filtered: z.boolean().openapi({
    description: 'True when the Leads list’s filters narrowed the chart (then it counts what the list shows)',
  }),
  calculators: z.array(z.string()).openapi({ description: 'By share of the period, largest first' }),
  weeks: z.array(
    z.object({ from: Day, to: Day, counts: z.record(z.string(), z.number().int()), total: z.number().int() }),
  ),
});

export const HeldLeads = z.object({
  total: z.number().int(),
  byReason: z.record(z.string(), z.number().int()),
  latest: z.array(
    z.object({
      leadId: z.string(),
      name: z.string(),
      email: z.string(),
      reasons: z.array(z.string()),
      createdAt: Iso,
    }),
  ),
});

export const ErasedLead = z.object({
  deleted: z.boolean(),
  leadId: z.string(),
  resultDeleted: z.string().nullable(),
  outboxEventsDeleted: z.number().int(),
  mailsDeleted: z.number().int(),
});

/** The data-subject export: the stored rows as they are, grouped by kind. */
export const PersonExport = SubjectExport;

// --- Firm: overview, keys, activity, members ---------------------------------------------------

export const Overview = z.object({
  firm: z.object({ id: z.string(), name: z.string() }),
  licenses: z.array(PortalLicense),
  leads: z.object({
    thisMonth: z.number().int(),
    /** Last month from its 1st up to the same day and time as now: like for like. */
    lastMonth: z.number().int(),
    latest: z.array(PortalLead),
    hiddenTest: z.number().int(),
  }),
  now: Iso,
});

/** The Overview's funnel: the last 30 UTC days, the 30 before, and the days of the first. */
export const PortalFunnel = z.object({
  current: FunnelSchema,
  previous: FunnelSchema.pick({ from: true, to: true, totals: true }),
  days: z.array(
    z.object({
      day: z.string(),
      views: z.number().int(),
      calculations: z.number().int(),
      leads: z.number().int(),
    }),
  ),
});

/** Where embeds are live: per license and site origin, the last UTC day with a view and a lead. */
export const EmbedSightings = z.object({
  data: z.array(
    z.object({
      licenseId: z.string(),
      origin: z.string(),
      lastView: z.string().nullable().openapi({ description: 'UTC day (YYYY-MM-DD)' }),
      lastLead: z.string().nullable().openapi({ description: 'UTC day (YYYY-MM-DD)' }),
    }),
  ),
});

export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  last4: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  createdBy: z.string().openapi({ description: 'A member’s e-mail, “operator” or “a former member”' }),
  createdAt: Iso,
  lastUsedAt: IsoOrNull,
  revokedAt: IsoOrNull,
  expiresAt: IsoOrNull,
});
export const ApiKeyList = z.object({ data: z.array(ApiKey) });
export const CreatedApiKey = z.object({
  apiKey: z.string().openapi({ description: 'The key, in this answer only' }),
  id: z.string(),
  name: z.string(),
  last4: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
});

export const ActivityEvent = z.object({
  id: z.string(),
  at: Iso,
  actor: z.string(),
  actorLabel: z.string().openapi({ description: 'Who acted, as a person reads it' }),
  subjectLabel: z.string().optional(),
  action: z.string(),
  subject: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export const ActivityPage = z.object({ data: z.array(ActivityEvent), nextCursor: z.string().nullable() });

export const Member = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  since: Iso,
  lastSignInAt: IsoOrNull,
  you: z.boolean(),
});
export const MemberList = z.object({ data: z.array(Member) });
export const Invited = z.union([
  z.object({ status: z.literal('invited'), invitationId: z.string(), expiresAt: Iso }),
  z.object({ status: z.literal('role_changed'), userId: z.string() }),
]);
const Invitation = z.object({
  id: z.string(),
  email: z.string(),
  role: Role,
  sentAt: Iso,
  expiresAt: Iso,
});
export const InvitationList = z.object({ data: z.array(Invitation) });

// --- Settings -------------------------------------------------------------------------------------

export const FirmSettings = z.object({
  name: z.string(),
  alertEmails: z.array(z.string()),
  accentColor: z.string().nullable(),
  contact: FirmContactSchema,
  leadRetentionMonths: z.number().int().nullable().openapi({
    description: 'Leads not converted are erased this many months after their last change (null: kept)',
  }),
  consent: z.object({ version: z.number().int(), text: z.string() }).nullable(),
  /** The Spanish consent in force (null: none published; see `spanishConsent`). */
  consentEs: z.object({ version: z.number().int(), text: z.string() }).nullable(),
  /**
   * What a Spanish widget shows: the firm's Spanish text, the default Spanish text (the firm is on
   * the default English one), or its own English text with a line saying it is in English.
   */
  spanishConsent: z.enum(['own', 'default', 'english']),
  consentVersions: z.array(
    z.object({
      id: z.string(),
      version: z.number().int(),
      text: z.string(),
      createdAt: Iso,
      language: z.string(),
    }),
  ),
});

export const Endpoint = WebhookEndpoint;
export const EndpointList = z.object({ data: z.array(Endpoint), eventTypes: z.array(z.string()) });
export const OneEndpoint = z.object({ endpoint: Endpoint });
export const EndpointWithSecret = z.object({
  endpoint: Endpoint,
  secret: z.string().openapi({ description: 'The whsec_ signing secret, in this answer only' }),
});
export const DeletedEndpoint = Deleted;

export const Attempt = DeliveryAttempt;
export const Delivery = WebhookDelivery;
export const DeliveryList = z.object({ data: z.array(Delivery) });
export const QueuedDelivery = DeliveryQueued;

// --- Connect and rules ----------------------------------------------------------------------------

export const ConnectRequest = z.object({
  clientId: z.string(),
  site: DomainName,
  developmentHost: z.boolean(),
  hostKind: z.enum(['public', 'loopback', 'private']),
  scope: z.enum(SCOPES),
  redirectOrigin: z.string(),
  access: z.array(z.string()),
  withheld: z.array(z.string()),
  licenses: z.array(
    z.object({ id: z.string(), plan: z.string(), keyLast4: z.string(), domains: z.array(DomainName) }),
  ),
  canApprove: z.boolean(),
});
export const RedirectTo = z.object({ redirectTo: z.string() });

const McpClientKind = z.enum(['metadata-document', 'dynamic']);
export const McpConsent = z.object({
  client: z.object({
    clientId: z.string(),
    /** The client's own claim, never verified. */
    name: z.string().nullable(),
    nameVerified: z.boolean(),
    kind: McpClientKind,
    documentHost: z.string().nullable(),
    redirectUri: z.string(),
    redirectHost: z.string(),
    localhostOnly: z.boolean(),
    /** The return address is a `*.localhost` name: this computer, but any program on it may claim the name. */
    localhostName: z.boolean(),
  }),
  firm: z.object({ name: z.string() }),
  /** `optional`: offered unticked; granted only when the approver ticks it. */
  scopes: z.array(z.object({ scope: z.string(), description: z.string(), optional: z.boolean() })),
  resource: z.string(),
  canApprove: z.boolean(),
  role: z.enum(['owner', 'admin', 'viewer']),
});
export const ConnectedApps = z.object({
  apps: z.array(
    z.object({
      grantId: z.string(),
      clientId: z.string(),
      clientName: z.string().nullable(),
      nameVerified: z.boolean(),
      kind: McpClientKind,
      redirectHost: z.string(),
      approvedBy: z.object({ email: z.string(), name: z.string().nullable() }),
      approvedAt: z.string(),
      lastUsedAt: z.string().nullable(),
      scopes: z.array(z.string()),
    }),
  ),
});

const RuleStatus = z.enum(['primary', 'secondary', 'missing']);
/** One change to the calculators' law (calculators/rules-changelog.ts); also the `rules.updated` event's data. */
export const RuleChangeSchema = z
  .object({
    id: z.string(),
    date: Day,
    kind: z.enum(['added', 'confirmed', 'corrected']),
    figure: z.string(),
    before: z.string().nullable(),
    after: z.string(),
    status: RuleStatus,
    source: z.object({ title: z.string(), url: z.string().optional() }),
    calculators: z.array(z.string()).readonly(),
    states: z.array(z.string()).readonly(),
    summary: z.string(),
    announce: z.literal(false).optional(),
  })
  .openapi('RuleChange');

/** The rule changes the firm was told of and has not dismissed (the portal's banner). */
export const RuleNotices = z.object({
  data: z.array(RuleChangeSchema.omit({ announce: true }).extend({ toldAt: Iso })),
});

export const RulesCatalog = z.object({
  checked: Day,
  coverage: z.object({ from: Day, to: Day }),
  ruleSets: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      jurisdiction: z.string(),
      covers: z.string(),
      from: Day,
      to: Day.nullable(),
      status: RuleStatus,
      figures: z.array(
        z.object({
          key: z.string(),
          label: z.string(),
          value: z.string(),
          status: RuleStatus,
          sources: z
            .array(
              z.object({
                title: z.string(),
                url: z.string().optional(),
                kind: z.enum(['primary', 'secondary', 'search']),
                checked: z.string(),
              }),
            )
            .readonly(),
          note: z.string().optional(),
        }),
      ),
    }),
  ),
  changes: z.array(RuleChangeSchema).openapi({ description: 'Every change to the rules, newest first' }),
  notPublished: z
    .array(z.object({ id: z.string(), jurisdiction: z.string(), figure: z.string() }))
    .openapi({ description: 'Figures looked for and not yet published: the next pack’s checklist' }),
});

/** Settings → Destinations (issue 42): declared with the admin API's destination shapes. */
export { PortalDestinationList, PortalOneDestination } from '../admin/destination-schemas.ts';
