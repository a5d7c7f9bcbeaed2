import type { ConnectedApps, McpConsent } from '../server/routes/portal/types.ts';

/**
 * The portal API's answers for MCP OAuth (issue 27), typed from the server's schemas
 * (server/routes/portal/answers.ts): the consent request and the firm's connected apps.
 */
export type McpConsentRequest = McpConsent;
export type ConnectedApp = ConnectedApps['apps'][number];
/** How the application identified itself: a Client ID Metadata Document or dynamic registration. */
export type McpClientKind = McpConsent['client']['kind'];

/**
 * A detail of a refused consent request. Once the server knows the redirect URI is the client's,
 * `redirectTo` carries the OAuth error (with state and iss) for the page to send the browser back.
 */
export interface McpConsentProblem {
  path: string;
  message: string;
  redirectTo?: string;
}

/** What the page calls an application that gave no name. */
export const appName = (name: string | null) => name ?? 'An unnamed application';

/**
 * How a person recognises the application, since its name is only a claim: the host that serves
 * its metadata document (the `client_id` URL's host), else the client id svc gave it at registration.
 */
export function clientIdentity(client: {
  clientId: string;
  kind: McpClientKind;
  documentHost?: string | null;
}): string {
  if (client.kind !== 'metadata-document') return client.clientId;
  if (client.documentHost) return client.documentHost;
  try {
    return new URL(client.clientId).host;
  } catch {
    return client.clientId;
  }
}
