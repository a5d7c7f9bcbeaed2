import { inheritanceTaxCore } from '../../calculators/inheritance-tax/core.ts';
import { boot } from '../boot.tsx';
import { inheritanceTaxForm } from '../forms/inheritance-tax.ts';

// Spanish is a chunk of its own, fetched only by a Spanish widget.
boot(
  { core: inheritanceTaxCore, form: inheritanceTaxForm },
  () => import('../../calculators/i18n/es/inheritance-tax.ts'),
);
