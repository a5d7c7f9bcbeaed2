/**
 * Answers of the portal API for MCP OAuth (issue 27): the consent request and the firm's
 * connected apps. The server routes (part A) own these shapes; the portal keeps this copy until
 * they are exported from server/routes/portal/portal-types.ts, then re-exports those.
 */

/** How the application identified itself: a Client ID Metadata Document or dynamic registration. */
export type McpClientKind = 'metadata-document' | 'dynamic';

export interface McpConsentRequest {
  client: {
    clientId: string;
    /** The name the client claims (null when it gave none); `nameVerified` is false for a dynamically registered name. */
    name: string | null;
    nameVerified: boolean;
    kind: McpClientKind;
    /** The host serving the metadata document (null for dynamic registration). */
    documentHost: string | null;
    redirectUri: string;
    redirectHost: string;
    /** Every redirect URI is a loopback address: whatever runs on that computer gets the access. */
    localhostOnly: boolean;
  };
  firm: { name: string };
  scopes: { scope: string; description: string }[];
  resource: string;
  canApprove: boolean;
  role: 'owner' | 'admin' | 'viewer';
}

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

export interface McpRedirect {
  redirectTo: string;
}

export interface ConnectedApp {
  grantId: string;
  clientId: string;
  clientName: string | null;
  nameVerified: boolean;
  kind: McpClientKind;
  redirectHost: string;
  approvedBy: { email: string; name: string | null };
  approvedAt: string;
  lastUsedAt: string | null;
  scopes: string[];
}

export interface ConnectedAppList {
  apps: ConnectedApp[];
}

/** `/oauth/authorize` asks for the MCP resource (not a site Connect) when `resource` names it. */
export function isMcpResource(resource: string | null): boolean {
  if (!resource) return false;
  try {
    const path = new URL(resource).pathname.replace(/\/+$/, '');
    return path.endsWith('/v1/mcp') || path === '/mcp';
  } catch {
    return false;
  }
}

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
