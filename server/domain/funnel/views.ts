import { getCalculator } from '../../../calculators/index.ts';
import { AppError } from '../../lib/errors.ts';
import { pageOnOrigin } from '../activation/page-on-origin.ts';
import type { Principal } from '../credentials/principal.ts';
import type { FunnelCounter } from './counter.ts';

export interface ViewInput {
  calculator: string;
  page?: string | undefined;
  language?: string | undefined;
}

/**
 * A widget became ready (`POST /v1/api/views`): one view for its calculator, on the page it
 * reported when that page is on the embed session's own origin (else with no page). Counted in
 * memory only; nothing about the visitor is kept.
 */
export function recordView(
  funnel: FunnelCounter | undefined,
  principal: Extract<Principal, { kind: 'embed' }>,
  input: ViewInput,
): void {
  if (!getCalculator(input.calculator))
    throw new AppError('INVALID_REQUEST', `Unknown calculator "${input.calculator}".`);
  funnel?.add({
    kind: 'view',
    accountId: principal.accountId,
    licenseId: principal.licenseId,
    calculator: input.calculator,
    page: pageOnOrigin(principal, input.page).page,
    language: input.language ?? 'en',
    test: principal.test,
  });
}
