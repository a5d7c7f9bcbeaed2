import type { BrowserContext, Request } from 'playwright-core';
import type { ConnectedApp, McpConsentRequest } from '../../portal/mcp-oauth-types.ts';

/**
 * A stand-in for the four portal routes of issue 27 (GET/POST /v1/portal/oauth/mcp-consent,
 * GET /v1/portal/connected-apps, POST /v1/portal/connected-apps/{grantId}/revoke), answering in
 * the same shapes inside one browser context. Everything else (session cookie, CSRF token,
 * sign-in, the built portal under its CSP) is the real server. It checks what the real routes check
 * at the edge that the screens depend on: a session cookie, the CSRF token on writes, 403 for a
 * viewer's approval. The spec's last block runs against the real routes; this one shows states the
 * real server cannot be put in cheaply from a test (a metadata-document client from claude.ai, a
 * verified name, a refusal that carries redirectTo, many grants from several members).
 */
export interface ContractState {
  consent:
    | McpConsentRequest
    | { error: { code: string; message: string; status: number; details?: unknown } };
  apps: ConnectedApp[];
  /** Where a decision sends the browser (the client's redirect URI with code or error, and state). */
  redirectFor: (decision: 'approve' | 'deny', params: Record<string, string>) => string;
  decisions: {
    decision: string;
    params: Record<string, string>;
    /** The optional scopes the approver ticked (sent beside the request's own parameters). */
    approvedScopes: string[];
    csrf: string | undefined;
  }[];
  revoked: string[];
}

const json = (status: number, body: unknown) => ({
  status,
  contentType: 'application/json',
  headers: { 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

const refused = (status: number, code: string, message: string) =>
  json(status, { error: { code, message, status } });

function checkSession(request: Request): ReturnType<typeof json> | null {
  if (!/(^|; )(__Host-)?svc_session=/.test(request.headers().cookie ?? ''))
    return refused(401, 'UNAUTHENTICATED', 'Sign in to the portal.');
  if (request.method() !== 'GET' && !request.headers()['x-csrf-token'])
    return refused(403, 'CSRF', 'Missing CSRF token.');
  return null;
}

export async function serveMcpOAuthContract(context: BrowserContext, state: ContractState) {
  await context.route('**/v1/portal/oauth/mcp-consent**', async (route, request) => {
    const denied = checkSession(request);
    if (denied) return route.fulfill(denied);
    if ('error' in state.consent) return route.fulfill(json(state.consent.error.status, state.consent));
    if (request.method() === 'GET') return route.fulfill(json(200, state.consent));
    const { approvedScopes = [], ...body } = request.postDataJSON() as Record<string, string> & {
      approvedScopes?: string[];
    };
    const { decision, ...params } = body as Record<string, string>;
    if (decision !== 'approve' && decision !== 'deny')
      return route.fulfill(refused(400, 'VALIDATION_FAILED', 'decision must be approve or deny.'));
    if (decision === 'approve' && !state.consent.canApprove)
      return route.fulfill(refused(403, 'FORBIDDEN', 'Only owners and admins can approve.'));
    state.decisions.push({ decision, params, approvedScopes, csrf: request.headers()['x-csrf-token'] });
    return route.fulfill(json(200, { redirectTo: state.redirectFor(decision, params) }));
  });
  await context.route('**/v1/portal/connected-apps**', async (route, request) => {
    const denied = checkSession(request);
    if (denied) return route.fulfill(denied);
    const revoke = /\/connected-apps\/([^/]+)\/revoke$/.exec(new URL(request.url()).pathname);
    if (request.method() === 'GET' && !revoke) return route.fulfill(json(200, { apps: state.apps }));
    if (request.method() === 'POST' && revoke) {
      const grantId = decodeURIComponent(revoke[1]!);
      if (!state.apps.some((a) => a.grantId === grantId))
        return route.fulfill(refused(404, 'NOT_FOUND', 'No such connected app.'));
      state.revoked.push(grantId);
      state.apps = state.apps.filter((a) => a.grantId !== grantId);
      return route.fulfill({ status: 204, body: '' });
    }
    return route.fulfill(refused(405, 'METHOD_NOT_ALLOWED', 'Method not allowed.'));
  });
}
