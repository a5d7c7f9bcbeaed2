/**
 * The rate-limit groups of DESIGN.md §5 and how a request maps to one.
 * Limits are per minute and multiplied by RATE_LIMIT_SCALE.
 */
export const RATE_LIMIT_GROUPS = {
  activation: { limit: 10, windowSeconds: 60 },
  calculations: { limit: 60, windowSeconds: 60 },
  pdf: { limit: 20, windowSeconds: 60 },
  leads: { limit: 10, windowSeconds: 60 },
  /** Widget views (`POST /v1/api/views`): one per widget on a page load, so several per page. */
  views: { limit: 120, windowSeconds: 60 },
  default: { limit: 120, windowSeconds: 60 },
  /**
   * Not a route group: the per-IP budget of embed traffic (sessions, calculations, PDFs, leads) of
   * a license that has crossed its plan ceiling (trust model). Generous for a person, tight for a
   * script.
   */
  tight: { limit: 10, windowSeconds: 60 },
} as const;

export type RateLimitGroup = keyof typeof RATE_LIMIT_GROUPS;

const GROUP_BY_ROUTE: Record<string, RateLimitGroup> = {
  'POST /v1/api/licenses/activate': 'activation',
  'POST /v1/api/licenses/exchange': 'activation',
  'POST /v1/api/calc/estimate': 'calculations',
  'POST /v1/api/pdf/generate': 'pdf',
  'POST /v1/api/leads': 'leads',
  'POST /v1/api/views': 'views',
};

/** `path` is the canonical (/v1) path; aliases are rewritten before this runs. */
export function rateLimitGroupOf(method: string, path: string): RateLimitGroup {
  return GROUP_BY_ROUTE[`${method.toUpperCase()} ${path.replace(/\/+$/, '')}`] ?? 'default';
}

export function scaledLimit(group: RateLimitGroup, scale: number): number {
  return Math.max(1, Math.round(RATE_LIMIT_GROUPS[group].limit * scale));
}
