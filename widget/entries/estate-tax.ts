import { estateTaxCore } from '../../calculators/estate-tax/core.ts';
import { boot } from '../boot.tsx';
import { estateTaxForm } from '../forms/estate-tax.ts';

boot({ core: estateTaxCore, form: estateTaxForm });
