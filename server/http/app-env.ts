import type { Logger } from 'pino';
import type { PortalPrincipal } from '../domain/accounts/portal-deps.ts';
import type { Principal } from '../domain/credentials/principal.ts';
import type { RateGate } from './rate-limit/rate-limit.ts';
import type { RateDecision } from './rate-limit/rate-limiter.ts';

/** Per-request variables shared by the middleware chain and handlers. */
interface AppVariables {
  requestId: string;
  logger: Logger;
  rateDecision?: RateDecision;
  /** The count a deferred route takes itself (`rate-limit.ts`, `DEFERRED`). */
  rateGate?: RateGate;
  /** The client's address as TRUST_PROXY reads it (set by the rate limiter, which runs first). */
  clientIp?: string;
  /** Set by the auth layer once a credential has been verified, so it is verified only once. */
  credential?: unknown;
  /** The verified caller of a route guarded by `requireCredential`. */
  principal?: Principal;
  /** The signed-in portal user of a route guarded by `requirePortalSession`. */
  portal?: PortalPrincipal;
}

export interface AppEnv {
  Variables: AppVariables;
}
