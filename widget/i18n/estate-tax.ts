import spanish from '../../calculators/i18n/es/estate-tax.ts';
import { sayDates } from './spanish-dates.ts';

// The estate-tax page's Spanish chunk: its words, and its date field said in Spanish.
sayDates(document);

export default spanish;
