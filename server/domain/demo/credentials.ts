import { createHmac } from 'node:crypto';
import { generateApiKey, generateLicenseKey, generatePublishableKey } from '../credentials/formats.ts';

/**
 * The demo firm's credentials are derived from the instance's secret key instead of being stored:
 * the database keeps only their HMACs, yet every start can print them again. Anyone holding the
 * secret key can already decrypt the signing keys, so this exposes nothing new.
 */
export function demoCredentials(secretKey: Buffer): {
  licenseKey: string;
  publishableKey: string;
  apiKey: string;
} {
  const stream = (label: string) => {
    let counter = 0;
    return (size: number) => {
      const out = Buffer.alloc(size);
      let filled = 0;
      while (filled < size) {
        const block = createHmac('sha256', secretKey).update(`${label}:${counter++}`).digest();
        filled += block.copy(out, filled);
      }
      return out;
    };
  };
  return {
    licenseKey: generateLicenseKey(stream('demo-license')),
    publishableKey: generatePublishableKey(stream('demo-publishable')),
    apiKey: generateApiKey(stream('demo-api-key')),
  };
}
