import { signal } from '@preact/signals';
import type { PortalSession } from '../server/routes/portal/types.ts';
import { api, type PortalError, setCsrfToken } from './api.ts';

/** undefined while loading; null when signed out. */
export const session$ = signal<PortalSession | null | undefined>(undefined);

export async function loadSession(): Promise<void> {
  try {
    const session = await api.get('session');
    setCsrfToken(session.csrfToken);
    session$.value = session;
  } catch (error) {
    if ((error as PortalError).status === 401) session$.value = null;
    else throw error;
  }
}

export const canManage = () => session$.value?.firm.role === 'owner' || session$.value?.firm.role === 'admin';
