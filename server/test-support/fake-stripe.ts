import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  auth: string | undefined;
}

type Obj = Record<string, unknown>;
const DAY = 86_400;
const PERIOD = 30 * DAY;

/**
 * A local stand-in for api.stripe.com that the real `stripe` client is pointed at
 * (STRIPE_API_BASE). It keeps customers, prices, subscriptions, invoices and Checkout sessions in
 * memory, answers the calls svc makes, and offers the moves Stripe makes on its own (renewal,
 * failed payment, cancellation) plus signed webhook events for them, signed with the stripe
 * library's test header helper.
 */
export async function startFakeStripe(opts: { webhookSecret?: string } = {}) {
  const secret = opts.webhookSecret ?? 'whsec_test_fake_secret';
  const seen: SeenRequest[] = [];
  const customers = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  let counter = 0;
  const next = (prefix: string) => `${prefix}_fake${++counter}`;

  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://fake');
    const request = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      body: new URLSearchParams(raw),
      auth: req.headers.authorization,
    };
    seen.push(request);
    const [status, body] = route(request);
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  });

  const missing = (id: string): [number, Obj] => [
    404,
    { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${id}` } },
  ];

  function route(r: SeenRequest): [number, Obj] {
    const key = `${r.method} ${r.path}`;
    if (key === 'POST /v1/customers') {
      const customer = { id: next('cus'), object: 'customer', name: r.body.get('name') };
      customers.set(customer.id, customer);
      return [200, customer];
    }
    if (key === 'POST /v1/billing_portal/sessions') {
      const id = next('bps');
      return [
        200,
        { id, object: 'billing_portal.session', url: `https://billing.stripe.test/session/${id}` },
      ];
    }
    if (key === 'GET /v1/prices') {
      const wanted = [...r.query.entries()].filter(([k]) => k.startsWith('lookup_keys')).map(([, v]) => v);
      const data = [...prices.values()].filter((p) => wanted.includes(String(p.lookup_key)));
      return [200, { object: 'list', data, has_more: false, url: '/v1/prices' }];
    }
    if (key === 'POST /v1/checkout/sessions') {
      const id = next('cs');
      const session = {
        id,
        object: 'checkout.session',
        mode: r.body.get('mode'),
        customer: r.body.get('customer'),
        client_reference_id: r.body.get('client_reference_id'),
        metadata: { license_id: r.body.get('metadata[license_id]') },
        subscription: null,
        url: `https://checkout.stripe.test/pay/${id}`,
        line_items: {
          price: r.body.get('line_items[0][price]'),
          quantity: Number(r.body.get('line_items[0][quantity]')),
        },
        subscription_metadata: { license_id: r.body.get('subscription_data[metadata][license_id]') },
        success_url: r.body.get('success_url'),
        cancel_url: r.body.get('cancel_url'),
      };
      sessions.set(id, session);
      return [200, session];
    }
    const sub = /^GET \/v1\/subscriptions\/([\w-]+)$/.exec(key);
    if (sub) {
      const found = subscriptions.get(sub[1]!);
      if (!found) return missing(sub[1]!);
      const expand = [...r.query.values()].includes('latest_invoice');
      return [200, expand ? { ...found, latest_invoice: invoices.get(String(found.latest_invoice)) } : found];
    }
    const inv = /^GET \/v1\/invoices\/([\w-]+)$/.exec(key);
    if (inv) return invoices.has(inv[1]!) ? [200, invoices.get(inv[1]!)!] : missing(inv[1]!);
    return [404, { error: { type: 'invalid_request_error', message: `unknown path ${key}` } }];
  }

  function item(s: Obj): Obj {
    return (s.items as { data: Obj[] }).data[0]!;
  }

  function invoiceFor(s: Obj, paid: boolean): Obj {
    const it = item(s);
    const invoice = {
      id: next('in'),
      object: 'invoice',
      customer: s.customer,
      status: paid ? 'paid' : 'open',
      period_start: it.current_period_start,
      period_end: it.current_period_end,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: s.id, metadata: s.metadata },
      },
    };
    invoices.set(invoice.id, invoice);
    s.latest_invoice = invoice.id;
    return invoice;
  }

  const fake = {
    seen,
    customers,
    prices,
    subscriptions,
    invoices,
    sessions,
    webhookSecret: secret,
    url: '',
    /** A recurring price; `lookupKey` names the plan, metadata may carry `plan` and `seats`. */
    price(lookupKey: string | null, metadata: Record<string, string> = {}): Obj {
      // Like `transfer_lookup_key`: the newest price takes the lookup key over.
      for (const other of prices.values())
        if (lookupKey && other.lookup_key === lookupKey) other.lookup_key = null;
      const price = { id: next('price'), object: 'price', active: true, lookup_key: lookupKey, metadata };
      prices.set(price.id, price);
      return price;
    },
    /** A new subscription, first invoice paid (or not), period starting at `start` (Unix seconds). */
    subscribe(o: {
      customer: string;
      price: Obj;
      quantity?: number;
      licenseId?: string;
      start: number;
      paid?: boolean;
    }) {
      const s: Obj = {
        id: next('sub'),
        object: 'subscription',
        customer: o.customer,
        status: o.paid === false ? 'incomplete' : 'active',
        metadata: o.licenseId ? { license_id: o.licenseId } : {},
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        trial_end: null,
        latest_invoice: null,
        items: {
          object: 'list',
          data: [
            {
              id: next('si'),
              object: 'subscription_item',
              price: o.price,
              quantity: o.quantity ?? 1,
              current_period_start: o.start,
              current_period_end: o.start + PERIOD,
            },
          ],
        },
      };
      subscriptions.set(String(s.id), s);
      const invoice = invoiceFor(s, o.paid !== false);
      return { subscription: s, invoice };
    },
    /** Checkout completes: the subscription is made from the session, as Stripe does. */
    completeCheckout(sessionId: string, start: number) {
      const session = sessions.get(sessionId)!;
      const lineItems = session.line_items as { price: string; quantity: number };
      const { subscription } = fake.subscribe({
        customer: String(session.customer),
        price: prices.get(lineItems.price)!,
        quantity: lineItems.quantity,
        licenseId: String((session.subscription_metadata as Obj).license_id),
        start,
      });
      session.subscription = subscription.id;
      session.status = 'complete';
      return { session, subscription };
    },
    /** The period rolls over and Stripe charges the renewal: paid → active, failed → past_due. */
    renew(id: string, paid: boolean) {
      const s = subscriptions.get(id)!;
      const it = item(s);
      it.current_period_start = it.current_period_end;
      it.current_period_end = Number(it.current_period_end) + PERIOD;
      s.status = paid ? 'active' : 'past_due';
      return { subscription: s, invoice: invoiceFor(s, paid) };
    },
    /** Stripe gives up retrying a failed renewal and cancels the subscription. */
    giveUp(id: string, at: number) {
      const s = subscriptions.get(id)!;
      Object.assign(s, { status: 'canceled', canceled_at: at, ended_at: at });
      return s;
    },
    update(id: string, changes: { price?: Obj; quantity?: number }) {
      const s = subscriptions.get(id)!;
      Object.assign(item(s), changes);
      return s;
    },
    /** Cancel at period end (renewal stops) or now. */
    cancel(id: string, o: { atPeriodEnd: boolean; at: number }) {
      const s = subscriptions.get(id)!;
      if (o.atPeriodEnd)
        Object.assign(s, {
          cancel_at_period_end: true,
          cancel_at: item(s).current_period_end,
          canceled_at: o.at,
        });
      else Object.assign(s, { status: 'canceled', canceled_at: o.at, ended_at: o.at });
      return s;
    },
    /** The period end of a subscription cancelled at period end: it ends. */
    endAtPeriodEnd(id: string) {
      const s = subscriptions.get(id)!;
      Object.assign(s, { status: 'canceled', ended_at: item(s).current_period_end });
      return s;
    },
    /** A webhook delivery: the JSON body and its `Stripe-Signature` header at `timestamp` (seconds). */
    event(type: string, object: Obj, timestamp: number, id = next('evt')) {
      const payload = JSON.stringify({
        id,
        object: 'event',
        type,
        api_version: '2026-10-28.endive',
        created: timestamp,
        livemode: false,
        data: { object: structuredClone(object) },
      });
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
      return { id, payload, header };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
