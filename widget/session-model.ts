import { createModel, effect, signal } from '@preact/signals';
import type { ErrorPayload } from '../protocol/index.ts';
import type { Credentials } from './api.ts';
import type { Bridge } from './bridge.ts';

/**
 * The widget's embed session as the loader hands it over: credentials once `svc-init` arrives,
 * renewed by `svc-token`, or the reason there is none (`svc-session-error`).
 */
export const SessionModel = createModel((bridge: Bridge | undefined) => {
  const credentials = signal<Credentials | undefined>(undefined);
  const problem = signal<ErrorPayload | undefined>(
    bridge
      ? undefined
      : {
          reason: 'token_denied',
          message: 'This calculator runs inside a firm’s website; figures here are a preview.',
        },
  );

  effect(() =>
    bridge?.onSession((message) => {
      if (message.type === 'svc-session-error') {
        credentials.value = undefined;
        problem.value = { reason: message.reason, message: message.message };
        return;
      }
      const apiUrl = message.type === 'svc-init' ? message.apiUrl : credentials.value?.apiUrl;
      if (!apiUrl) return; // a renewal cannot come before the init
      credentials.value = { token: message.token, apiUrl };
      problem.value = undefined;
    }),
  );

  return {
    credentials,
    problem,
    renew: () => bridge?.requestToken() ?? Promise.resolve(false),
  };
});
