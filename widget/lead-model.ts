import { action, createModel, effect, type ReadonlySignal, signal } from '@preact/signals';
import { type Api, ApiError } from './api.ts';
import type { Emit } from './calculator-model.ts';

/** Shown beside the consent box and stored with the lead, word for word. */
export const CONSENT_TEXT =
  'I agree that this firm may contact me by email or phone about my estate plan. This is not legal advice and does not create an attorney–client relationship.';

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
        if (!consent.value) {
          error.value = 'Please tick the box to agree to be contacted.';
          return;
        }
        busy.value = true;
        error.value = undefined;
        key ??= crypto.randomUUID();
        const { name, email, phone, state, website } = values.value;
        const id = result.value?.resultId;
        try {
          const created = await api.submitLead(
            {
              calculator: slug,
              ...(id ? { resultId: id } : {}),
              name: name.trim(),
              email: email.trim(),
              ...(phone.trim() ? { phone: phone.trim() } : {}),
              state: state.trim().toUpperCase(),
              consent: true,
              consentText: CONSENT_TEXT,
              website,
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
