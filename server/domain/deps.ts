import type { Db } from '../db/engine/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { LookupCaches } from './caches/lookup-caches.ts';
import type { TokenService } from './credentials/tokens.ts';
import type { FunnelCounter } from './funnel/counter.ts';
import type { ViewLedger } from './funnel/view-ledger.ts';
import type { PlanTable } from './licensing/plans.ts';

/**
 * What nearly every domain function needs: the database, the clock, the token service, the
 * pepper that keys stored secrets' HMACs, and optionally the plan table and lookup caches. Built
 * once in services.ts; subjects with more needs extend it (PortalDeps, DeliveryDeps).
 */
export interface LicensingDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  pepper: Buffer;
  /** The plan table (`PLANS`); the defaults when absent. */
  plans?: PlanTable;
  /** Lookup caches (verified tokens, licenses, keys); every write that changes them invalidates. */
  caches?: LookupCaches;
  /** Access-token lifetime (`ACCESS_TOKEN_TTL_SECONDS`); 15 minutes when absent. */
  accessTokenTtlMs?: number;
  /** The portal's leads page (`<PUBLIC_PORTAL_URL>/portal/leads`), linked from digest events. */
  portalLeadsUrl?: string;
  /** The MCP resource URLs (`/v1/mcp`, `/mcp`) an `mcp+jwt` must name as its audience. */
  mcpResources?: readonly string[];
  /** The funnel's in-memory counter (views, calculations, leads), flushed off the request path. */
  funnel?: FunnelCounter;
  /** Which widgets of an embed session were counted as a view (one view each). */
  views?: ViewLedger;
}

/**
 * Who acts (`admin`, `stripe`, `user:<address>`) and, for a firm's own portal, the account the
 * caller may see: ids of other accounts are then answered like unknown ids.
 */
export interface ActingAs {
  actor: string;
  accountId?: string;
}
