import { inheritanceTaxCore } from '../../calculators/inheritance-tax/core.ts';
import { boot } from '../boot.tsx';
import { inheritanceTaxForm } from '../forms/inheritance-tax.ts';

boot({ core: inheritanceTaxCore, form: inheritanceTaxForm });
