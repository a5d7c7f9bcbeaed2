import { probateFeesCore } from '../../calculators/probate-fees/core.ts';
import { boot } from '../boot.tsx';
import { probateFeesForm } from '../forms/probate-fees.ts';

// Spanish is a chunk of its own, fetched only by a Spanish widget.
boot(
  { core: probateFeesCore, form: probateFeesForm },
  () => import('../../calculators/i18n/es/probate-fees.ts'),
);
