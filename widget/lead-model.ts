import { action, createModel, effect, type ReadonlySignal, signal } from '@preact/signals';
import { type Api, ApiError } from './api.ts';
import type { Emit } from './calculator-model.ts';
import { solveChallenge } from './proof-of-work.ts';

/** Shown beside the consent box and stored with the lead, word for word, with the firm's name. */
export const consentText = (firm = 'this firm') =>
  `I agree that ${firm} may contact me by email or phone about my estate plan. This is not legal advice and does not create an attorney–client relationship.`;

export interface LeadValues {
  name: string;
  email: string;
  phone: string;
  state: string;
  /** Honeypot: hidden from people, so anything typed here came from a bot. */
  website: string;
}

const EMPTY: LeadValues = { name: '', email: '', phone: '', state: '', website: '' };

/** The contact form under a stored result; one Idempotency-Key per set of answers. */
export const LeadModel = createModel(
  (
    slug: string,
    api: Api,
    emit: Emit,
    result: ReadonlySignal<{ resultId: string; state: string | null } | undefined>,
    firm: ReadonlySignal<{ name: string } | undefined> = signal(undefined),
  ) => {
    const values = signal<LeadValues>({ ...EMPTY });
    const consent = signal(false);
    const busy = signal(false);
    const error = signal<string | undefined>(undefined);
    const fieldErrors = signal<Record<string, string>>({});
    const leadId = signal<string | undefined>(undefined);
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
        key ??= crypto.randomUUID();
        const { phone, state, website } = values.value;
        const id = result.value?.resultId;
        try {
          // Proof of work, solved now (send was pressed); a failure to get one leaves it to the server.
          const altcha = await api.leadChallenge().then(solveChallenge, () => undefined);
          const created = await api.submitLead(
            {
              calculator: slug,
              ...(id ? { resultId: id } : {}),
              name: name.trim(),
              email: email.trim(),
              ...(phone.trim() ? { phone: phone.trim() } : {}),
              state: state.trim().toUpperCase(),
              consent: true,
              consentText: consentText(firm.value?.name),
              website,
              altcha, // left out of the JSON when undefined
            },
            key,
          );
          leadId.value = created.leadId;
          emit('svc-lead', { leadId: created.leadId, calculator: slug, ...(id ? { resultId: id } : {}) });
        } catch (e) {
          const failure =
            e instanceof ApiError ? e : new ApiError({ reason: 'unknown', message: 'Something went wrong.' });
          error.value = failure.payload.message;
          fieldErrors.value = Object.fromEntries(failure.details.map((d) => [d.path, d.message]));
          emit('svc-error', failure.payload);
        } finally {
          busy.value = false;
        }
      }),
    };
  },
);
