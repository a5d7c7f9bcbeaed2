import type { CalculatorDefinition } from '../types.ts';
import { estateTaxCore } from './core.ts';
import { type EstateTaxInput, estateTaxSchema } from './schema.ts';

export { ESTATE_TAX_RULES, estateTaxCore } from './core.ts';

export const estateTax: CalculatorDefinition<EstateTaxInput> = {
  ...estateTaxCore,
  inputSchema: estateTaxSchema,
};
