import { estateTaxCore } from '../../calculators/estate-tax/core.ts';
import { boot } from '../boot.tsx';
import { estateTaxForm } from '../forms/estate-tax.ts';

// Spanish is a chunk of its own, fetched only by a Spanish widget.
boot({ core: estateTaxCore, form: estateTaxForm }, () => import('../i18n/estate-tax.ts'));
