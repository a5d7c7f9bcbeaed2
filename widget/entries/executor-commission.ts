import { executorCommissionCore } from '../../calculators/executor-commission/core.ts';
import { boot } from '../boot.tsx';
import { executorCommissionForm } from '../forms/executor-commission.ts';

boot({ core: executorCommissionCore, form: executorCommissionForm });
