import { executorCommissionCore } from '../../calculators/executor-commission/core.ts';
import { boot } from '../boot.tsx';
import { executorCommissionForm } from '../forms/executor-commission.ts';

// Spanish is a chunk of its own, fetched only by a Spanish widget.
boot(
  { core: executorCommissionCore, form: executorCommissionForm },
  () => import('../../calculators/i18n/es/executor-commission.ts'),
);
