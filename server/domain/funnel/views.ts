import { getCalculator } from '../../../calculators/index.ts';
import { AppError } from '../../lib/errors.ts';
import { pageOnOrigin } from '../activation/page-on-origin.ts';
import type { Principal } from '../credentials/principal.ts';
import type { FunnelCounter } from './counter.ts';
import { funnelPage } from './pages.ts';
import type { ViewLedger } from './view-ledger.ts';

export interface ViewInput {
  calculator: string;
  page?: string | undefined;
  language?: string | undefined;
}

/**
 * A widget became ready (`POST /v1/api/views`): one view for its calculator, on the page it
 * reported when that page is on the embed session's own origin (else with no page), at most once
 * per embed session, calculator and page (`ViewLedger`); a repeat is accepted and not counted.
 * Counted in memory only; nothing about the visitor is kept. True when counted.
 */
export async function recordView(
  deps: { funnel?: FunnelCounter | undefined; views?: ViewLedger | undefined },
  principal: Extract<Principal, { kind: 'embed' }>,
  input: ViewInput,
): Promise<boolean> {
  if (!getCalculator(input.calculator))
    throw new AppError('INVALID_REQUEST', `Unknown calculator "${input.calculator}".`);
  const { page } = pageOnOrigin(principal, input.page);
  if (deps.views && !(await deps.views.first(principal.sid, input.calculator, funnelPage(page))))
    return false;
  deps.funnel?.add({
    kind: 'view',
    accountId: principal.accountId,
    licenseId: principal.licenseId,
    calculator: input.calculator,
    page,
    language: input.language ?? 'en',
    test: principal.test,
  });
  return true;
}
