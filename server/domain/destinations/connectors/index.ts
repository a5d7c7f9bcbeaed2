import type { Connector, DestinationVendor } from '../connector.ts';
import { clioGrow } from './clio-grow.ts';
import { hubspot } from './hubspot.ts';
import { salesforce } from './salesforce.ts';
import { wealthbox } from './wealthbox.ts';

/** Every connector, by vendor. */
export const CONNECTORS: Readonly<Record<DestinationVendor, Connector<never>>> = {
  'clio-grow': clioGrow as Connector<never>,
  hubspot: hubspot as Connector<never>,
  salesforce: salesforce as Connector<never>,
  wealthbox: wealthbox as Connector<never>,
};
