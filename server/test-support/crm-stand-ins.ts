import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * In-process stand-ins for the CRMs destinations deliver to, on 127.0.0.1:0: one server, each
 * vendor on its own documented path, so `DESTINATION_BASE_URLS` can point every vendor here. Each
 * checks what its vendor documents (path, method, authentication, content type, required fields)
 * and answers as the vendor does; the pages are cited in the connectors
 * (server/domain/destinations/connectors/). Where a vendor does not document its error bodies
 * (Clio Grow's Lead Inbox, Wealthbox), the stand-in answers with the status the docs imply and a
 * JSON `error`/`errors` body, and the connector reads either.
 *
 * `throttle(vendor, n, seconds)` makes the vendor's next n requests answer 429 with Retry-After.
 */
export type StandInVendor = 'clio-grow' | 'hubspot' | 'salesforce' | 'wealthbox';

interface Received {
  vendor: StandInVendor | null;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  at: number;
}

export interface StandInOptions {
  clioTokens?: string[];
  hubspot?: {
    tokens?: string[];
    tokensWithoutFormsScope?: string[];
    portalId?: string;
    formGuid?: string;
    formFields?: string[];
  };
  wealthboxTokens?: string[];
  salesforceOids?: string[];
}

export const FIXTURE = (name: string) =>
  readFileSync(new URL(`./crm-fixtures/${name}`, import.meta.url), 'utf8');

export async function startCrmStandIns(opts: StandInOptions = {}) {
  const received: Received[] = [];
  /** Leads each vendor kept (Salesforce's silently dropped ones are not here). */
  const kept: Record<StandInVendor, unknown[]> = {
    'clio-grow': [],
    hubspot: [],
    salesforce: [],
    wealthbox: [],
  };
  const throttled: Partial<Record<StandInVendor, { left: number; seconds: number }>> = {};
  const hub = {
    tokens: opts.hubspot?.tokens ?? ['pat-na1-good'],
    noScope: opts.hubspot?.tokensWithoutFormsScope ?? ['pat-na1-noscope'],
    portalId: opts.hubspot?.portalId ?? '62515',
    formGuid: opts.hubspot?.formGuid ?? '78c2891f-ebdd-44c0-bd94-15c012bbbfbf',
    formFields: opts.hubspot?.formFields ?? [
      'firstname',
      'lastname',
      'email',
      'phone',
      'message',
      'estate_value',
    ],
  };
  const state = {
    clioTokens: new Set(opts.clioTokens ?? ['clio-good-token', 'sample-inbox-token-0001']),
    wealthboxTokens: new Set(opts.wealthboxTokens ?? ['wb-good-token']),
    salesforceOids: new Set(opts.salesforceOids ?? ['00D000000000001']),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = Buffer.concat(chunks).toString('utf8');
      const vendor = vendorOf(url.pathname);
      const entry: Received = {
        vendor,
        method: req.method ?? '',
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
        body,
        status: 0,
        at: Date.now(),
      };
      received.push(entry);
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        entry.status = status;
        const text = json === '' ? '' : JSON.stringify(json);
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      };
      if (!vendor) return send(404, { error: 'Not Found' });
      const throttle = throttled[vendor];
      if (throttle && throttle.left > 0) {
        throttle.left -= 1;
        return send(429, rateLimitBody(vendor), { 'retry-after': String(throttle.seconds) });
      }
      if (req.method !== 'POST') return send(405, { error: 'Method Not Allowed' });
      const answer = HANDLERS[vendor]({ url, headers: req.headers, body, state, hub });
      if (answer.kept !== undefined) kept[vendor].push(answer.kept);
      if (vendor === 'salesforce') {
        // Web-to-Lead: 200 and an empty page whatever happened to the lead.
        entry.status = 200;
        res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8' }).end('');
        return;
      }
      send(answer.status, answer.json, answer.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    /** `DESTINATION_BASE_URLS` pointing every vendor here. */
    baseUrls: `clio-grow=${base},hubspot=${base},salesforce=${base},wealthbox=${base}`,
    received,
    kept,
    hub,
    state,
    throttle(vendor: StandInVendor, left: number, seconds: number) {
      throttled[vendor] = { left, seconds };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function vendorOf(path: string): StandInVendor | null {
  if (path === '/inbox_leads') return 'clio-grow';
  if (path.startsWith('/submissions/v3/integration/secure/submit/')) return 'hubspot';
  if (path === '/servlet/servlet.WebToLead') return 'salesforce';
  if (path === '/v1/contacts') return 'wealthbox';
  return null;
}

function rateLimitBody(vendor: StandInVendor) {
  return vendor === 'hubspot'
    ? {
        status: 'error',
        message: 'You have reached your secondly limit.',
        errorType: 'RATE_LIMIT',
        correlationId: randomUUID(),
        policyName: 'SECONDLY',
      }
    : { error: 'Too Many Requests' };
}

interface Ctx {
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  state: { clioTokens: Set<string>; wealthboxTokens: Set<string>; salesforceOids: Set<string> };
  hub: { tokens: string[]; noScope: string[]; portalId: string; formGuid: string; formFields: string[] };
}
interface Answer {
  status: number;
  json: unknown;
  headers?: Record<string, string>;
  kept?: unknown;
}

const isJson = (h: IncomingHttpHeaders) =>
  (h['content-type'] ?? '').split(';')[0]!.trim() === 'application/json';
const parse = (body: string): Record<string, unknown> | null => {
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

const HANDLERS: Record<StandInVendor, (ctx: Ctx) => Answer> = {
  /** https://docs.developers.clio.com/guides/clio-grow/lead-inbox-api/ */
  'clio-grow'({ headers, body, state }) {
    if (!isJson(headers) || (headers.accept ?? '') !== 'application/json')
      return { status: 415, json: { error: 'Content-Type and Accept must be application/json' } };
    const json = parse(body);
    if (!json) return { status: 400, json: { error: 'Malformed JSON' } };
    if (typeof json.inbox_lead_token !== 'string' || !state.clioTokens.has(json.inbox_lead_token))
      return { status: 401, json: { error: 'Invalid inbox_lead_token' } };
    const lead = (json.inbox_lead ?? {}) as Record<string, unknown>;
    const missing = ['from_first', 'from_last', 'from_message', 'referring_url', 'from_source'].filter((f) =>
      blank(lead[f]),
    );
    if (missing.length)
      return {
        status: 422,
        json: { errors: Object.fromEntries(missing.map((f) => [f, ["can't be blank"]])) },
      };
    return {
      status: 201,
      json: { inbox_lead: { id: Math.floor(Math.random() * 1e9), ...lead } },
      kept: lead,
    };
  },
  /** https://developers.hubspot.com/docs/api-reference/legacy/marketing/forms/v3-legacy/submit-data-authenticated */
  hubspot({ url, headers, body, hub }) {
    const correlationId = randomUUID();
    const auth = headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (hub.noScope.includes(token))
      return {
        status: 403,
        json: {
          status: 'error',
          message: "This app hasn't been granted all required scopes to make this call.",
          correlationId,
          errors: [
            {
              message: 'One or more of the following scopes are required.',
              context: { requiredScopes: ['forms'] },
            },
          ],
          category: 'MISSING_SCOPES',
        },
      };
    if (!hub.tokens.includes(token))
      return {
        status: 401,
        json: {
          status: 'error',
          message: 'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
          correlationId,
          category: 'INVALID_AUTHENTICATION',
        },
      };
    const [, , , , , , portalId, formGuid] = url.pathname.split('/');
    if (portalId !== hub.portalId || formGuid !== hub.formGuid)
      return { status: 404, json: { status: 'error', message: 'Form not found', correlationId } };
    if (!isJson(headers))
      return { status: 415, json: { status: 'error', message: 'Unsupported Media Type', correlationId } };
    const json = parse(body);
    const fields = Array.isArray(json?.fields) ? (json.fields as Record<string, unknown>[]) : null;
    const errors: { message: string; errorType: string }[] = [];
    if (!json || !fields) errors.push({ message: 'fields is required', errorType: 'INPUT_TOO_LARGE' });
    for (const f of fields ?? []) {
      const name = String(f.name ?? '');
      if (f.objectTypeId !== '0-1' && f.objectTypeId !== undefined)
        errors.push({
          message: `Error in 'fields.${name}'. Unknown objectTypeId`,
          errorType: 'FIELD_NOT_IN_FORM_DEFINITION',
        });
      else if (!hub.formFields.includes(name))
        errors.push({
          message: `Error in 'fields.${name}'. This field does not exist on the form`,
          errorType: 'FIELD_NOT_IN_FORM_DEFINITION',
        });
    }
    const email = fields?.find((f) => f.name === 'email')?.value;
    if (fields && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)))
      errors.push({ message: "Error in 'fields.email'. Invalid email address", errorType: 'INVALID_EMAIL' });
    const submittedAt = json?.submittedAt;
    if (submittedAt !== undefined && !/^\d{10,16}$/.test(String(submittedAt)))
      errors.push({
        message: 'submittedAt must be a timestamp in milliseconds',
        errorType: 'INVALID_METADATA',
      });
    const consent = (json?.legalConsentOptions as { consent?: Record<string, unknown> } | undefined)?.consent;
    if (consent && (consent.consentToProcess !== true || blank(consent.text)))
      errors.push({
        message: 'legalConsentOptions.consent needs consentToProcess and text',
        errorType: 'INVALID_METADATA',
      });
    if (errors.length)
      return {
        status: 400,
        json: { status: 'error', message: 'The request is not valid', correlationId, errors },
      };
    return { status: 200, json: { inlineMessage: 'Thanks for submitting the form.' }, kept: json };
  },
  /** https://dev.wealthbox.com/#contacts-create-a-new-contact-post */
  wealthbox({ headers, body, state }) {
    const token = headers.access_token;
    if (typeof token !== 'string' || !state.wealthboxTokens.has(token))
      return { status: 401, json: { error: 'Unauthorized: invalid ACCESS_TOKEN' } };
    if (!isJson(headers)) return { status: 415, json: { error: 'Content-Type must be application/json' } };
    const json = parse(body);
    if (!json) return { status: 400, json: { error: 'Malformed JSON' } };
    if ((json.type ?? 'Person') === 'Person') {
      const missing = ['first_name', 'last_name'].filter((f) => blank(json[f]));
      if (missing.length)
        return {
          status: 422,
          json: { errors: Object.fromEntries(missing.map((f) => [f, ["can't be blank"]])) },
        };
    }
    return { status: 200, json: { id: Math.floor(Math.random() * 1e7), ...json }, kept: json };
  },
  /** https://help.salesforce.com/s/articleView?id=sf.setting_up_web-to-lead.htm */
  salesforce({ url, headers, body, state }) {
    const ok =
      url.searchParams.get('encoding') === 'UTF-8' &&
      (headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const form = new URLSearchParams(body);
    const oid = form.get('oid') ?? '';
    // Dropped silently when the org is unknown or the last name is missing: Web-to-Lead still answers 200.
    if (!ok || !state.salesforceOids.has(oid) || !form.get('last_name')) return { status: 200, json: '' };
    return { status: 200, json: '', kept: Object.fromEntries(form) };
  },
};
