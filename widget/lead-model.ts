import { action, createModel, effect, type ReadonlySignal, signal } from '@preact/signals';
import type { ConsentInfo, ErrorPayload } from '../protocol/index.ts';
import { type Api, ApiError, asApiError, problemsByField } from './api.ts';
import type { Emit } from './calculator-model.ts';
import { hex, solveChallenge } from './proof-of-work.ts';

export interface LeadValues {
  name: string;
  email: string;
  phone: string;
  state: string;
  /** Honeypot: hidden from people, so anything typed here came from a bot. */
  website: string;
}

const EMPTY: LeadValues = { name: '', email: '', phone: '', state: '', website: '' };

/** Shown when every retry failed; the form keeps what the visitor typed and offers "Try again". */
export const NOT_SENT =
  'Your details could not be sent: the connection to the firm’s server failed. Nothing you typed is lost; please try again.';

/**
 * A random Idempotency-Key. `crypto.getRandomValues` works in every context; `crypto.randomUUID`
 * exists only in secure contexts, and a widget framed by a plain-HTTP page is not one.
 */
const newKey = () => hex(crypto.getRandomValues(new Uint32Array(4)));

/**
 * The contact form under a stored result; one Idempotency-Key per set of answers, so a retry (the
 * api's own, or the visitor's "Try again") can never store the lead twice. `busy` always ends:
 * every request has a deadline and the retries are bounded.
 */
export const LeadModel = createModel(
  (
    slug: string,
    api: Api,
    emit: Emit,
    result: ReadonlySignal<{ resultId: string; state: string | null } | undefined>,
    /** The firm's consent version from the embed session: its text is what the form shows. */
    consentVersion: ReadonlySignal<ConsentInfo | undefined> = signal(undefined),
  ) => {
    const values = signal<LeadValues>({ ...EMPTY });
    const consent = signal(false);
    const busy = signal(false);
    const error = signal<ErrorPayload | undefined>(undefined);
    const fieldErrors = signal<Record<string, string>>({});
    const leadId = signal<string | undefined>(undefined);
    /** The last send failed on the network: the button offers to try again with the same key. */
    const retryable = signal(false);
    let key: string | undefined;

    // The calculator already asked for the state: offer it, unless the visitor typed one.
    effect(() => {
      const state = result.value?.state;
      if (state && !values.peek().state) values.value = { ...values.peek(), state };
    });

    return {
      values,
      consent,
      busy,
      error,
      fieldErrors,
      leadId,
      retryable,
      setValue: action((name: keyof LeadValues, value: string) => {
        values.value = { ...values.value, [name]: value };
        key = undefined; // different answers are a different request
      }),
      submit: action(async () => {
        const { name, email } = values.value;
        const missing: Record<string, string> = {};
        if (!name.trim()) missing.name = 'Enter your name';
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()))
          missing.email = 'Enter an email address, e.g. jane@example.com';
        if (!/^[A-Z]{2}$/.test(values.value.state)) missing.state = 'Choose your state';
        if (!consent.value) missing.consent = 'Tick the box so the firm may contact you';
        fieldErrors.value = missing;
        if (Object.keys(missing).length) {
          error.value = undefined;
          return;
        }
        busy.value = true;
        error.value = undefined;
        try {
          key ??= newKey();
          const { phone, state, website } = values.value;
          const id = result.value?.resultId;
          const versionId = consentVersion.value?.versionId;
          const body = {
            calculator: slug,
            ...(id ? { resultId: id } : {}),
            name: name.trim(),
            email: email.trim(),
            ...(phone.trim() ? { phone: phone.trim() } : {}),
            state: state.trim().toUpperCase(),
            consent: true,
            // The version whose words the box showed; the server stores exactly that one.
            ...(versionId ? { consentVersionId: versionId } : {}),
            website,
          };
          const created = await sendWithWork(api, body, key);
          leadId.value = created.leadId;
          retryable.value = false;
          emit('svc-lead', { leadId: created.leadId, calculator: slug, ...(id ? { resultId: id } : {}) });
        } catch (e) {
          const failure = asApiError(e);
          retryable.value = failure.payload.reason === 'network';
          error.value = retryable.value ? { reason: 'network', message: NOT_SENT } : failure.payload;
          fieldErrors.value = problemsByField(failure.details);
          emit('svc-error', failure.payload);
        } finally {
          busy.value = false;
        }
      }),
    };
  },
);

/** How many times a lead is sent with a freshly solved challenge when the server calls it too easy. */
const FRESH_CHALLENGES = 3;

/**
 * Solves a challenge now (send was pressed) and sends the lead with it; a failure to get one
 * leaves it to the server (the lead is then stored but held). A challenge priced for a quieter
 * hour than now is refused (400, `altcha` `too_easy`): a new one is fetched and solved, and the
 * lead is sent again with the same Idempotency-Key. After FRESH_CHALLENGES such answers (a price
 * rising faster than this device solves, as when someone floods the form during each solve) the
 * lead goes once more without a proof of work: the server stores it held for the firm to review
 * and the visitor is told it was received. A real visitor's lead is never turned into a refusal.
 */
async function sendWithWork(api: Api, body: Record<string, unknown>, key: string) {
  for (let attempt = 1; ; attempt++) {
    const altcha =
      attempt > FRESH_CHALLENGES
        ? undefined
        : await api.leadChallenge().then(solveChallenge, () => undefined);
    try {
      // `altcha` is left out of the JSON when undefined.
      return await api.submitLead({ ...body, altcha }, key);
    } catch (e) {
      const tooEasy =
        e instanceof ApiError &&
        e.status === 400 &&
        e.details.some((d) => d.path === 'altcha' && d.message === 'too_easy');
      if (!tooEasy || attempt > FRESH_CHALLENGES) throw e;
    }
  }
}
