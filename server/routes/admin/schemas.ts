import { z } from '@hono/zod-openapi';
import { FirmContactSchema } from '../../contracts/firm-contact.ts';
import { LeadSchema } from '../../contracts/lead.ts';
import { errorResponses, Iso, jsonResponse } from '../schemas.ts';
import { ActivationReleased, License, LicenseDetail } from '../shared-schemas.ts';

/** The admin API's answers (`/admin/v1/...`): what the CLI renders, typed through `api-types.ts`. */

/** The admin document's groups: accounts, licenses and keys; webhooks and personal data. */
export const ADMIN_TAGS = ['Admin'];
export const DELIVERY_TAGS = ['Admin: delivery and privacy'];
export const adminSecurity = [{ adminToken: [] }];
export const IdParam = z.object({ id: z.string().min(1).max(64) });

/** A 200 with `schema`, and the errors every admin route can answer (plus 409 where state can conflict). */
export const adminOk = <T extends z.ZodType>(description: string, schema: T, ...extra: 409[]) => ({
  200: jsonResponse(description, schema),
  ...errorResponses(400, 401, 404, ...extra),
});

const IsoOrNull = Iso.nullable();

const AccountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    accentColor: z.string().nullable(),
    alertEmails: z.array(z.string()),
    contact: FirmContactSchema.nullable(),
    leadRetentionMonths: z.number().int().nullable(),
    stripeCustomerId: z.string().nullable(),
    createdAt: Iso,
  })
  .openapi('AdminAccount');

export const AccountListSchema = z
  .object({ accounts: z.array(AccountSchema.extend({ licenses: z.number().int() })) })
  .openapi('AdminAccountList');

export const AccountDetailSchema = z
  .object({
    account: AccountSchema.extend({
      consent: z
        .object({
          id: z.string(),
          version: z.number().int(),
          text: z.string(),
          createdAt: Iso,
          versions: z.number().int(),
        })
        .nullable()
        .openapi({ description: 'The consent version in force (null before the first)' }),
      licenseIds: z.array(z.string()),
    }),
  })
  .openapi('AdminAccountDetail');

const LicenseViewSchema = License;

export const LicenseDetailSchema = LicenseDetail;

export const LicenseCreatedSchema = z
  .object({ license: LicenseViewSchema, licenseKey: z.string(), publishableKey: z.string() })
  .openapi('AdminLicenseCreated');

export const ActivationReleasedSchema = ActivationReleased;

export const KeyRolledSchema = z
  .object({
    kind: z.enum(['publishable', 'secret']),
    licenseKey: z.string().optional(),
    publishableKey: z.string().optional(),
    previousKeysEndAt: Iso,
  })
  .openapi('AdminKeyRolled');

const ApiKeySchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  keyLast4: z.string(),
  scopes: z.array(z.string()),
  createdAt: Iso,
  lastUsedAt: IsoOrNull,
  revokedAt: IsoOrNull,
  expiresAt: IsoOrNull,
  createdBy: z.string().nullable(),
});

export const ApiKeyCreatedSchema = ApiKeySchema.pick({
  id: true,
  name: true,
  scopes: true,
  keyLast4: true,
  createdAt: true,
})
  .extend({ apiKey: z.string() })
  .openapi('AdminApiKeyCreated');

export const ApiKeyListSchema = z.object({ apiKeys: z.array(ApiKeySchema) }).openapi('AdminApiKeyList');

export const ConnectCodeSchema = z.object({ code: z.string(), expiresAt: Iso }).openapi('AdminConnectCode');

const DemoSchema = z.object({
  licenseKey: z.string(),
  publishableKey: z.string(),
  apiKey: z.string(),
  accountId: z.string().nullable(),
  licenseId: z.string().nullable(),
  created: z.boolean(),
});

export const DemoSeedSchema = z
  .union([
    z.object({ demo: DemoSchema }),
    z.object({
      seeded: z.object({
        accountId: z.string(),
        leads: z.number().int(),
        days: z.number().int(),
        ms: z.number(),
      }),
    }),
  ])
  .openapi('AdminDemoSeed');

export const DemoCredentialsSchema = z
  .object({ demo: DemoSchema.extend({ signInLink: z.string() }) })
  .openapi('AdminDemoCredentials');

export const KeyRotationSchema = z
  .object({
    published: z.string().optional(),
    activated: z.string().optional(),
    retired: z.string().optional(),
  })
  .openapi('AdminKeyRotation');

export const AdminHealthSchema = z
  .object({ ok: z.literal(true), database: z.enum(['pglite', 'postgres']) })
  .openapi('AdminHealth');

export const InviteSchema = z
  .object({ userId: z.string(), link: z.string(), expiresAt: Iso })
  .openapi('AdminInvite');

export const ReleasedLeadSchema = z.object({ lead: LeadSchema }).openapi('AdminReleasedLead');

export const AccountCreatedSchema = z.object({ account: AccountSchema }).openapi('AdminAccountCreated');

export const LicenseListSchema = z
  .object({ licenses: z.array(LicenseViewSchema) })
  .openapi('AdminLicenseList');

export const RevokedSchema = z.object({ revoked: z.literal(true) }).openapi('AdminRevoked');
