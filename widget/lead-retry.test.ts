import { signal } from '@preact/signals';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from './api.ts';
import type { Emit } from './calculator-model.ts';
import { LeadModel, NOT_SENT } from './lead-model.ts';
import { API, json, stubLeadFetch } from './testing.ts';

const emitted: { type: string; payload: unknown }[] = [];
const emit: Emit = (type, payload) => void emitted.push({ type, payload });
const api = createApi({ credentials: () => ({ token: 't', apiUrl: API }), renew: async () => false });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  emitted.length = 0;
});

function filled() {
  const lead = new LeadModel('estate-tax', api, emit, signal({ resultId: 'res_1', state: 'NY' }));
  lead.setValue('name', 'Ada Plain');
  lead.setValue('email', 'ada@example.com');
  lead.consent.value = true;
  return lead;
}

describe('a lead whose send fails on the network', () => {
  it('keeps what was typed, says so, offers Try again, emits svc-error network; the retry uses the same key', async () => {
    vi.useFakeTimers();
    let down = true;
    // The lead posts (the proof-of-work challenge is answered apart: a lead is what is lost here).
    const { requests } = stubLeadFetch(() => {
      if (down) throw new TypeError('Failed to fetch');
      return json(201, { leadId: 'lead_1' });
    });
    const lead = filled();
    const first = lead.submit();
    expect(lead.busy.value).toBe(true);
    await vi.runAllTimersAsync();
    await first;
    expect(lead.busy.value).toBe(false);
    expect(lead.retryable.value).toBe(true);
    expect(lead.error.value?.message).toBe(NOT_SENT);
    expect(lead.values.value).toMatchObject({ name: 'Ada Plain', email: 'ada@example.com', state: 'NY' });
    expect(lead.consent.value).toBe(true);
    expect(emitted).toEqual([{ type: 'svc-error', payload: expect.objectContaining({ reason: 'network' }) }]);

    down = false;
    const second = lead.submit();
    await vi.runAllTimersAsync(); // the proof of work yields to the page between slices
    await second;
    expect(lead.leadId.value).toBe('lead_1');
    expect(lead.retryable.value).toBe(false);
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys.length).toBeGreaterThan(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('needs no secure-context API: works without crypto.randomUUID', async () => {
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    const { requests } = stubLeadFetch(() => json(201, { leadId: 'lead_2' }));
    const lead = filled();
    await lead.submit();
    expect(lead.leadId.value).toBe('lead_2');
    expect(requests[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f]{32}$/);
  });
});
