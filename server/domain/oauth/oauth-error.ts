/**
 * An OAuth protocol error as the token, registration and revocation endpoints answer it
 * (RFC 6749 §5.2, RFC 7591 §3.2.2): `{ error, error_description }`, not the svc error shape, since
 * OAuth clients parse this one.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'slow_down'
  | 'temporarily_unavailable';

export class OAuthProtocolError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : error === 'slow_down' ? 429 : 400,
  ) {
    super(description);
    this.name = 'OAuthProtocolError';
  }

  toBody() {
    return { error: this.error, error_description: this.description };
  }
}

export const oauthError = (error: OAuthErrorCode, description: string) =>
  new OAuthProtocolError(error, description);
