import type { z } from '@hono/zod-openapi';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type * as A from './answers.ts';

/**
 * The portal routes' answers as TypeScript types, for the portal app: imported with `import type`
 * only, so nothing of the server (nor zod) reaches the browser bundle, while a field changed in
 * answers.ts fails the portal's `tsc`.
 */

export type SignedIn = z.infer<typeof A.SignedIn>;
export type InvitationOffer = z.infer<typeof A.InvitationOffer>;
export type PortalSession = z.infer<typeof A.PortalSession>;
export type SessionRow = z.infer<typeof A.SessionRow>;
export type SessionList = z.infer<typeof A.SessionList>;
export type Passkey = z.infer<typeof A.Passkey>;
export type PasskeyList = z.infer<typeof A.PasskeyList>;
export type PortalLicense = z.infer<typeof A.PortalLicense>;
export type LicenseList = z.infer<typeof A.LicenseList>;
export type RolledKey = z.infer<typeof A.RolledKey>;
export type BillingOptions = z.infer<typeof A.BillingOptions>;
export type PortalLead = z.infer<typeof A.PortalLead>;
export type LeadPage = z.infer<typeof A.LeadPage>;
export type OneLead = z.infer<typeof A.OneLead>;
export type LeadDetail = z.infer<typeof A.LeadDetail>;
export type LeadChart = z.infer<typeof A.LeadChart>;
export type HeldLeads = z.infer<typeof A.HeldLeads>;
export type Overview = z.infer<typeof A.Overview>;
export type PortalFunnel = z.infer<typeof A.PortalFunnel>;
export type EmbedSightings = z.infer<typeof A.EmbedSightings>;
export type ApiKey = z.infer<typeof A.ApiKey>;
export type ApiKeyList = z.infer<typeof A.ApiKeyList>;
export type CreatedApiKey = z.infer<typeof A.CreatedApiKey>;
export type ActivityEvent = z.infer<typeof A.ActivityEvent>;
export type ActivityPage = z.infer<typeof A.ActivityPage>;
export type Member = z.infer<typeof A.Member>;
export type MemberList = z.infer<typeof A.MemberList>;
export type Invited = z.infer<typeof A.Invited>;
export type InvitationList = z.infer<typeof A.InvitationList>;
export type FirmSettings = z.infer<typeof A.FirmSettings>;
export type Endpoint = z.infer<typeof A.Endpoint>;
export type EndpointList = z.infer<typeof A.EndpointList>;
export type EndpointWithSecret = z.infer<typeof A.EndpointWithSecret>;
export type Attempt = z.infer<typeof A.Attempt>;
export type Delivery = z.infer<typeof A.Delivery>;
export type DeliveryList = z.infer<typeof A.DeliveryList>;
export type ConnectRequest = z.infer<typeof A.ConnectRequest>;
export type RedirectTo = z.infer<typeof A.RedirectTo>;

/** The WebAuthn options are documented as open objects; the browser library names their shape. */
type WithOptions<T, O> = Omit<T, 'options'> & { options: O };
export type PasskeyRegistrationOptions = WithOptions<
  z.infer<typeof A.PasskeyRegistrationOptions>,
  PublicKeyCredentialCreationOptionsJSON
>;
export type PasskeySignInOptions = WithOptions<
  z.infer<typeof A.PasskeySignInOptions>,
  PublicKeyCredentialRequestOptionsJSON
>;
/** Issue 27: the MCP consent request and the firm's connected apps. */
export type McpConsent = z.infer<typeof A.McpConsent>;
export type ConnectedApps = z.infer<typeof A.ConnectedApps>;
