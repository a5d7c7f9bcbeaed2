import { rmdCore } from '../../calculators/rmd/core.ts';
import { boot } from '../boot.tsx';
import { rmdForm } from '../forms/rmd.ts';

// Spanish is a chunk of its own, fetched only by a Spanish widget.
boot({ core: rmdCore, form: rmdForm }, () => import('../../calculators/i18n/es/rmd.ts'));
