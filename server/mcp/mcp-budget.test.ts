import { getEncoding } from 'js-tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLeads } from '../domain/demo/leads.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

/**
 * What an assistant pays to read the tools, counted in o200k_base BPE tokens (js-tiktoken, the
 * encoding of OpenAI's current models): `tools/list` with every tool at most 2,200 tokens; 25
 * leads from `get_leads` at most 6,000, text and `structuredContent` together (issue 43; before it,
 * 2,239 tokens for three tools and 19,822 for 25 leads — 9,911 of text, as many of structuredContent). docs/mcp.md quotes the figures printed here.
 */
const TOOLS_LIST_BUDGET = 2_200;
const LEADS_25_BUDGET = 6_000;
const enc = getEncoding('o200k_base');
const tokens = (text: string) => enc.encode(text).length;

let t: TestContext;
let key: string;

beforeAll(async () => {
  t = await createTestContext();
  const firm = await t.seed.firm();
  key = (await t.seed.apiKey(firm.account.id)).apiKey;
  await seedDemoLeads(t.services.licensing, { accountId: firm.account.id, leads: 40, days: 30 });
}, 60_000);
afterAll(() => t.close());

async function rpc(method: string, params: Record<string, unknown>) {
  const res = await t.app.request('/v1/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(res.status).toBe(200);
  return (await res.json()).result;
}

describe('MCP answer budgets (o200k_base tokens)', () => {
  it(`tools/list with every tool stays within ${TOOLS_LIST_BUDGET} tokens`, async () => {
    const list = await rpc('tools/list', {});
    expect(list.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'export_results',
      'generate_report',
      'get_calculator_results',
      'get_directory_stats',
      'get_lead',
      'get_leads',
      'update_lead_status',
    ]);
    const text = JSON.stringify(list.tools);
    const perTool = Object.fromEntries(
      list.tools.map((tool: { name: string }) => [tool.name, tokens(JSON.stringify(tool))]),
    );
    console.log(JSON.stringify({ toolsList: { chars: text.length, tokens: tokens(text), perTool } }));
    expect(tokens(text)).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it(`25 leads from get_leads stay within ${LEADS_25_BUDGET} tokens, text and structuredContent together`, async () => {
    const answer = await rpc('tools/call', { name: 'get_leads', arguments: { limit: 25 } });
    expect(answer.structuredContent.leads).toHaveLength(25);
    const text = answer.content.map((c: { text: string }) => c.text).join('\n');
    const structured = JSON.stringify(answer.structuredContent);
    const sizes = {
      textChars: text.length,
      textTokens: tokens(text),
      structuredChars: structured.length,
      structuredTokens: tokens(structured),
    };
    console.log(JSON.stringify({ leads25: sizes }));
    expect(sizes.textTokens + sizes.structuredTokens).toBeLessThanOrEqual(LEADS_25_BUDGET);
  });
});
