import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../main/servers.ts';
import { startStack } from '../test-support/stack.ts';

/**
 * The official SDK clients of both protocol eras against the real server on loopback: v2 in its
 * modern (2026-07-28, server/discover) and legacy (initialize) modes, and the v1 SDK client. Each
 * calls every tool and reads the files two of them make through `resources/read`.
 */
let stack: RunningServers;
let url: URL;
const SEEDED = 60;
const TOOLS = [
  'estimate',
  'export_results',
  'generate_report',
  'get_calculator_results',
  'get_directory_stats',
  'get_lead',
  'get_leads',
  'update_lead_status',
];

beforeAll(async () => {
  stack = await startStack({ RATE_LIMIT_SCALE: '100' });
  url = new URL(`${stack.apiUrl}/v1/mcp`);
  const res = await fetch(`${stack.apiUrl}/admin/v1/demo/seed`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: stack.demo.accountId, leads: SEEDED, days: 90 }),
  });
  expect(res.status).toBe(200);
}, 60_000);
afterAll(() => stack?.close());

const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/** Issue 46: what an attorney asks, and what the widget's own endpoint answers for it. */
const ASKED = {
  calculator: 'estate-tax',
  inputs: { estateValue: 12_000_000, state: 'WA', dateOfDeath: '2026-12-15' },
};
let rest: {
  outputs: Record<string, unknown>;
  lineItems: unknown[];
  notes: string[];
  ruleSet: { id: string; label?: string };
  disclaimer: string;
};
beforeAll(async () => {
  const activated = await fetch(`${stack.apiUrl}/v1/api/license/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:8080' },
    body: JSON.stringify({ licenseKey: stack.demo.publishableKey, calculator: 'estate-tax' }),
  });
  expect(activated.status).toBe(200);
  const { token } = (await activated.json()) as { token: string };
  const res = await fetch(`${stack.apiUrl}/v1/api/calc/estimate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(ASKED),
  });
  expect(res.status).toBe(200);
  rest = await res.json();
}, 30_000);

/** Every `"calculations":n` of the funnel, in order: what a counted calculation would move. */
const calculationCounts = (stats: Record<string, unknown>) =>
  [...JSON.stringify(stats.funnel).matchAll(/"calculations":(\d+)/g)].map((m) => Number(m[1]));

/**
 * `estimate` in this client: the REST endpoint's figures, text with the headline and the rules,
 * nothing stored and nothing counted, and bad inputs refused as a tool error naming the field.
 */
async function exerciseEstimate(
  client: ToolCaller,
  call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
) {
  const results = async () =>
    (await call('get_calculator_results', { includeTest: true, limit: 1 })).totalMatching as number;
  const storedBefore = await results();
  const countedBefore = calculationCounts(await call('get_directory_stats', { windowDays: 7 }));
  const answer = await client.callTool({ name: 'estimate', arguments: ASKED });
  expect(answer.isError ?? false).toBe(false);
  const estimate = answer.structuredContent as Record<string, unknown>;
  expect(estimate.outputs).toEqual(rest.outputs);
  expect(estimate.figures).toEqual(rest.lineItems);
  expect(estimate.notes).toEqual(rest.notes);
  expect(estimate.disclaimer).toBe(rest.disclaimer);
  expect(estimate.ruleSet).toMatchObject({ id: rest.ruleSet.id });
  expect(estimate.rules).toBe(rest.ruleSet.label);
  expect(estimate.headline).toBe('Total estate tax: $1,490,000.00');
  const text = (answer.content as { text: string }[])[0]!.text;
  expect(text).toContain('Total estate tax: $1,490,000.00');
  expect(text).toContain(`Rules: ${rest.ruleSet.label}`);

  const refused = await client.callTool({
    name: 'estimate',
    arguments: { calculator: 'estate-tax', inputs: { estateValue: -5, state: 'WA' } },
  });
  expect(refused.isError).toBe(true);
  const why = (refused.content as { text: string }[])[0]!.text;
  expect(why).toContain('inputs.estateValue');
  expect(why).toContain('svc://calculators');
  const unknown = await client.callTool({ name: 'estimate', arguments: { calculator: 'nope', inputs: {} } });
  expect(unknown.isError).toBe(true);
  for (const t of [why, (unknown.content as { text: string }[])[0]!.text]) expect(t).not.toMatch(/\n\s+at /);

  const catalogue = (await client.readResource({ uri: 'svc://calculators' })).contents[0]!;
  const listed = JSON.parse(catalogue.text!) as { calculators: { slug: string; inputSchema: object }[] };
  expect(listed.calculators.map((c) => c.slug)).toContain('estate-tax');

  expect(await results()).toBe(storedBefore);
  expect(calculationCounts(await call('get_directory_stats', { windowDays: 7 }))).toEqual(countedBefore);
}

const headers = () => ({ authorization: `Bearer ${stack.demo.apiKey}` });

interface ToolCaller {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown; inputSchema: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  readResource(params: { uri: string }): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  }>;
}

const ajv = new Ajv2020({ strict: false });

async function exercise(client: ToolCaller) {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  // estimate declares no output schema (tools/list's token budget); its answer is checked below.
  const validators = Object.fromEntries(
    tools.filter((t) => t.outputSchema).map((t) => [t.name, ajv.compile(t.outputSchema as object)]),
  );
  for (const tool of tools)
    expect((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties).toBe(false);

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError ?? false).toBe(false);
    const valid = validators[name]!(result.structuredContent);
    expect(valid, JSON.stringify(validators[name]!.errors)).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0]!;
    // Leads' text is a digest with the visitor's fields fenced; every other answer is its JSON.
    if (name === 'get_leads') expect(text.text).toContain('<visitor-input>');
    else if (name === 'get_lead' || name === 'update_lead_status')
      expect(JSON.parse(text.text.split('\n')[0]!).lead.id).toBe(
        (result.structuredContent as { lead: { id: string } }).lead.id,
      );
    else if (name !== 'export_results' && name !== 'generate_report')
      expect(JSON.parse(text.text)).toEqual(result.structuredContent);
    return result.structuredContent as Record<string, unknown>;
  };

  // Page get_leads to the end: every lead once, newest first, totals agree.
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let total = 0;
  do {
    const page = await call('get_leads', { limit: 25, ...(cursor ? { cursor } : {}) });
    const leads = page.leads as { id: string; createdAt: string; result?: { metadata: object } }[];
    seen.push(...leads.map((l) => l.id));
    total = page.totalMatching as number;
    cursor = page.nextCursor as string | undefined;
    pages++;
  } while (cursor && pages < 20);
  expect(cursor).toBeUndefined();
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen.length).toBe(total);
  expect(total).toBeGreaterThanOrEqual(SEEDED);
  expect(pages).toBe(Math.ceil(total / 25));

  const results = await call('get_calculator_results', { calculatorSlug: 'estate-tax', limit: 5 });
  const first = (results.results as { calculatorSlug: string; metadata: Record<string, unknown> }[])[0]!;
  expect(first.calculatorSlug).toBe('estate-tax');
  expect(first.metadata).toHaveProperty('federalTax');
  expect(first.metadata).toHaveProperty('stateTax');
  expect(first.metadata).toHaveProperty('estateValue');

  const stats = await call('get_directory_stats', { windowDays: 365 });
  expect(stats.totalLeadsAllTime).toBe(total);
  const byStatus = stats.byStatus as Record<string, number>;
  expect(byStatus.new! + byStatus.contacted! + byStatus.converted!).toBe(stats.leadsInWindow);
  const month = await call('get_directory_stats', { month: '2026-01' });
  expect(month).toMatchObject({ month: '2026-01', windowStart: '2026-01-01T00:00:00.000Z', windowDays: 31 });

  // One new lead in full, marked contacted (twice: the second changes nothing).
  const fresh = (await call('get_leads', { status: 'new', limit: 1 })).leads as { id: string }[];
  const lead = (await call('get_lead', { id: fresh[0]!.id })).lead as { id: string; result: { id: string } };
  expect(lead.id).toBe(fresh[0]!.id);
  expect(await call('update_lead_status', { id: lead.id, status: 'contacted' })).toMatchObject({
    changed: true,
    lead: { id: lead.id, status: 'contacted' },
  });
  expect(await call('update_lead_status', { id: lead.id, status: 'contacted' })).toMatchObject({
    changed: false,
  });

  // The two files, read back through resources/read.
  const csv = await call('export_results', { of: 'leads', format: 'csv', status: 'contacted' });
  expect(csv.uri).toMatch(/^svc:\/\/exports\/exp_/);
  const file = (await client.readResource({ uri: csv.uri as string })).contents[0]!;
  expect(file.mimeType).toBe('text/csv; charset=utf-8');
  expect(file.text!.split('\r\n').filter(Boolean)).toHaveLength((csv.rows as number) + 1);
  expect(file.text).toContain(lead.id);
  const pdf = await call('generate_report', { resultId: lead.result.id });
  const report = (await client.readResource({ uri: pdf.uri as string })).contents[0]!;
  expect(report.mimeType).toBe('application/pdf');
  expect(Buffer.from(report.blob!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

  await exerciseEstimate(client, call);
}

describe('MCP over the official SDK clients', () => {
  it('v2 client, modern era (2026-07-28 via server/discover)', async () => {
    const client = new Client(
      { name: 'svc-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: headers() } }));
    expect(client.getProtocolEra()).toBe('modern');
    // MCP Apps, declared through the extensions capability (server/discover in this era).
    expect(client.getServerCapabilities()?.extensions).toEqual(UI_EXTENSION);
    await exercise(client as unknown as ToolCaller);
    await client.close();
  }, 60_000);

  it('v2 client, legacy era (initialize handshake)', async () => {
    const client = new Client({ name: 'svc-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: headers() } }));
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getServerCapabilities()?.extensions).toEqual(UI_EXTENSION);
    await client.ping();
    await exercise(client as unknown as ToolCaller);
    await client.close();
  }, 60_000);

  it('v1 @modelcontextprotocol/sdk client', async () => {
    const client = new V1Client({ name: 'svc-test-v1', version: '1.0.0' });
    await client.connect(new V1Transport(url, { requestInit: { headers: headers() } }));
    expect(client.getServerVersion()?.name).toBe('svc');
    await exercise(client as unknown as ToolCaller);
    await client.close();
  }, 60_000);

  it('v2 client in auto mode lands on the modern era', async () => {
    const client = new Client(
      { name: 'svc-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: headers() } }));
    expect(client.getProtocolEra()).toBe('modern');
    await client.close();
  }, 30_000);
});
