import { rmdCore } from '../../calculators/rmd/core.ts';
import { boot } from '../boot.tsx';
import { rmdForm } from '../forms/rmd.ts';

boot({ core: rmdCore, form: rmdForm });
