/**
 * The API's answers as TypeScript types, inferred from the zod schemas that document each route.
 * Type-only: importing this module brings no zod and no route code into a bundle (`import type`),
 * so the CLI (and any browser code) can render answers against the server's own shapes, and a
 * changed field fails `tsc` instead of a screen.
 */
import type { z } from '@hono/zod-openapi';
import type {
  ClosureSchema,
  DeliveryListSchema,
  DeliveryQueuedSchema,
  EndpointAnswerSchema,
  EndpointDeletedSchema,
  EndpointListSchema,
  EndpointWithSecretSchema,
  LeadErasedSchema,
  RetentionReportSchema,
  SubjectExportSchema,
} from './admin/delivery-schemas.ts';
import type {
  DestinationAnswerSchema,
  DestinationListSchema,
  DestinationShowSchema,
} from './admin/destination-schemas.ts';
import type {
  AccountCreatedSchema,
  AccountDetailSchema,
  AccountListSchema,
  ActivationReleasedSchema,
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  ConnectCodeSchema,
  DemoCredentialsSchema,
  DemoSeedSchema,
  InviteSchema,
  KeyRolledSchema,
  KeyRotationSchema,
  LicenseCreatedSchema,
  LicenseDetailSchema,
  LicenseListSchema,
} from './admin/schemas.ts';

type Answer<T extends z.ZodType> = z.output<T>;

/** Every error answer: `{ error: { code, message, status, details? } }`. */

// Public API

// Admin API (/admin/v1)
export type AdminAccountCreated = Answer<typeof AccountCreatedSchema>;
export type AdminAccountList = Answer<typeof AccountListSchema>;
export type AdminAccountDetail = Answer<typeof AccountDetailSchema>;
export type AdminLicenseList = Answer<typeof LicenseListSchema>;
export type AdminLicenseDetail = Answer<typeof LicenseDetailSchema>;
export type AdminLicenseCreated = Answer<typeof LicenseCreatedSchema>;
export type AdminActivationReleased = Answer<typeof ActivationReleasedSchema>;
export type AdminKeyRolled = Answer<typeof KeyRolledSchema>;
export type AdminApiKeyCreated = Answer<typeof ApiKeyCreatedSchema>;
export type AdminApiKeyList = Answer<typeof ApiKeyListSchema>;
export type AdminConnectCode = Answer<typeof ConnectCodeSchema>;
export type AdminDemoSeed = Answer<typeof DemoSeedSchema>;
export type AdminDemoCredentials = Answer<typeof DemoCredentialsSchema>;
export type AdminKeyRotation = Answer<typeof KeyRotationSchema>;
export type AdminInvite = Answer<typeof InviteSchema>;
export type AdminWebhookEndpoint = Answer<typeof EndpointAnswerSchema>;
export type AdminWebhookEndpointWithSecret = Answer<typeof EndpointWithSecretSchema>;
export type AdminWebhookEndpoints = Answer<typeof EndpointListSchema>;
export type AdminDeleted = Answer<typeof EndpointDeletedSchema>;
export type AdminWebhookDeliveries = Answer<typeof DeliveryListSchema>;
export type AdminWebhookDeliveryQueued = Answer<typeof DeliveryQueuedSchema>;
export type AdminLeadErased = Answer<typeof LeadErasedSchema>;
export type AdminSubjectExport = Answer<typeof SubjectExportSchema>;
export type AdminAccountClosure = Answer<typeof ClosureSchema>;
export type AdminRetentionReport = Answer<typeof RetentionReportSchema>;
export type AdminDestination = Answer<typeof DestinationAnswerSchema>;
export type AdminDestinationShow = Answer<typeof DestinationShowSchema>;
export type AdminDestinations = Answer<typeof DestinationListSchema>;
