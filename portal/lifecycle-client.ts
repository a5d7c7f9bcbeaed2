/**
 * License lifecycle operations (add/remove domains, release a seat, roll keys, billing portal,
 * checkout). The license-lifecycle work adds the server side; until it is merged these calls are
 * not available and the Licenses page shows its buttons disabled with a note. Plugging them in
 * means implementing the functions here (each one `api.post(...)`) and setting `available`.
 */
export interface LicenseLifecycle {
  available: boolean;
  addDomain(licenseId: string, domain: string): Promise<void>;
  removeDomain(licenseId: string, domain: string): Promise<void>;
  releaseSeat(licenseId: string, activationId: string): Promise<void>;
  rollPublishableKey(licenseId: string): Promise<void>;
  openBillingPortal(licenseId: string): Promise<string>;
}

const notYet = async (): Promise<never> => {
  throw new Error('License changes are not available in this version of the portal yet.');
};

export const lifecycle: LicenseLifecycle = {
  available: false,
  addDomain: notYet,
  removeDomain: notYet,
  releaseSeat: notYet,
  rollPublishableKey: notYet,
  openBillingPortal: notYet,
};
