import { probateFeesCore } from '../../calculators/probate-fees/core.ts';
import { boot } from '../boot.tsx';
import { probateFeesForm } from '../forms/probate-fees.ts';

boot({ core: probateFeesCore, form: probateFeesForm });
