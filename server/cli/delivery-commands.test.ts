import { describe, expect, it } from 'vitest';
import { deliveryRequest } from './delivery-commands.ts';

const fail = (message: string) => new Error(message);

describe('webhook update / disable (CLI → admin PATCH, the same updateEndpoint as the portal)', () => {
  it.each([
    [
      ['webhook', 'update', 'whe_1'],
      { events: 'lead.created,lead.updated' },
      {
        method: 'PATCH',
        path: '/admin/v1/webhooks/whe_1',
        body: { events: ['lead.created', 'lead.updated'] },
      },
    ],
    [
      ['webhook', 'update', 'whe_1'],
      { description: 'HubSpot' },
      { method: 'PATCH', path: '/admin/v1/webhooks/whe_1', body: { description: 'HubSpot' } },
    ],
    [
      ['webhook', 'disable', 'whe_2'],
      {},
      { method: 'PATCH', path: '/admin/v1/webhooks/whe_2', body: { enabled: false } },
    ],
  ])('%j %j', (positionals, values, expected) => {
    expect(deliveryRequest(positionals, values, fail)).toMatchObject(expected);
  });

  it('refuses an update that changes nothing, or names no endpoint', () => {
    expect(() => deliveryRequest(['webhook', 'update', 'whe_1'], {}, fail)).toThrow(
      '--events or --description',
    );
    expect(() => deliveryRequest(['webhook', 'disable'], {}, fail)).toThrow('needs an ENDPOINT_ID');
  });

  it('renders the endpoint after the change', () => {
    const request = deliveryRequest(['webhook', 'disable', 'whe_2'], {}, fail)!;
    const text = request.render({
      endpoint: {
        id: 'whe_2',
        url: 'https://hooks.example.com/x',
        events: ['lead.created'],
        status: 'disabled',
      },
    });
    expect(text).toContain('disabled');
  });
});
