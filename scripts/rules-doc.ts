/** Writes docs/rules-and-sources.md from the estate-tax tables and their sources. */
import { writeFileSync } from 'node:fs';
import { rulesCatalog } from '../calculators/estate-tax/rules-catalog.ts';
import { rulesMarkdown } from '../calculators/estate-tax/rules-markdown.ts';

writeFileSync(new URL('../docs/rules-and-sources.md', import.meta.url), rulesMarkdown(rulesCatalog()));
