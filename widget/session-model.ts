import { createModel, effect, signal } from '@preact/signals';
import type { ConsentInfo, ErrorPayload, FirmInfo } from '../protocol/index.ts';
import type { Credentials } from './api.ts';
import type { Bridge } from './bridge.ts';
import { lang } from './i18n/t.ts';

/** Runs once, when the first session arrives, with its credentials and the host page. */
export type OnReady = (credentials: Credentials, page: string | undefined) => void;

/** Renew this long before expiry, so a slow network never leaves the widget holding a dead token. */
const RENEW_BEFORE_MS = 60_000;
const MAX_RETRIES = 8;
const TRANSIENT: readonly string[] = ['network', 'rate_limited', 'unknown'];

/**
 * The widget's embed session as the loader hands it over: credentials once `svc-init` arrives,
 * renewed by `svc-token`, or the reason there is none (`svc-session-error`). `onReady` runs once,
 * when the first session arrives: that is when the page emits `svc-ready`.
 */
export const SessionModel = createModel((bridge: Bridge | undefined, onReady?: OnReady) => {
  const credentials = signal<Credentials | undefined>(undefined);
  const firm = signal<FirmInfo | undefined>(undefined);
  const consent = signal<ConsentInfo | undefined>(undefined);
  /** The host page as the loader reported it (origin + path). */
  const page = signal<string | undefined>(undefined);
  const problem = signal<ErrorPayload | undefined>(
    bridge
      ? undefined
      : {
          reason: 'token_denied',
          message: 'This calculator runs inside a firm’s website; figures here are a preview.',
        },
  );
  let ready = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retries = 0;
  const later = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void bridge?.requestToken(), Math.max(1_000, ms));
  };

  effect(() => {
    const stop = bridge?.onSession((message) => {
      if (message.type === 'svc-session-error') {
        credentials.value = undefined;
        problem.value = { reason: message.reason, message: message.message };
        // The network or a rate limit may pass: ask again, further apart each time.
        if (TRANSIENT.includes(message.reason) && retries < MAX_RETRIES)
          later(Math.min(30_000, 2_000 << retries++));
        return;
      }
      retries = 0;
      // The loader keeps no timers: the widget asks for a new token a minute before this one ends.
      const left = Date.parse(message.expiresAt) - Date.now();
      if (left > 0) later(Math.max(left - RENEW_BEFORE_MS, left / 2));
      const apiUrl = message.type === 'svc-init' ? message.apiUrl : credentials.value?.apiUrl;
      if (!apiUrl) return; // a renewal cannot come before the init
      if (message.type === 'svc-init') {
        if (message.firm) firm.value = message.firm;
        if (message.consent) consent.value = message.consent.byLanguage?.[lang] ?? message.consent;
        if (message.page) page.value = message.page;
      }
      credentials.value = { token: message.token, apiUrl };
      problem.value = undefined;
      if (!ready) {
        ready = true;
        onReady?.(credentials.value, page.value);
      }
    });
    return () => {
      stop?.();
      clearTimeout(timer);
    };
  });

  return {
    credentials,
    firm,
    consent,
    page,
    problem,
    renew: () => bridge?.requestToken() ?? Promise.resolve(false),
  };
});
