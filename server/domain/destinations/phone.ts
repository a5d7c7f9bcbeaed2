import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * The phone in E.164 (`+12125550123`) when it parses as a valid North American number (US or
 * Canada: the calculators serve US visitors), else null; the number as the visitor typed it is
 * always sent beside it. libphonenumber-js's full metadata decides validity, not a pattern.
 */
export function northAmericanE164(typed: string | null | undefined): string | null {
  if (!typed) return null;
  const parsed = parsePhoneNumberFromString(typed, 'US');
  if (parsed?.countryCallingCode !== '1' || !parsed.isValid()) return null;
  return parsed.number;
}
