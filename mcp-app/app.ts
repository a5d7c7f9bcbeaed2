/**
 * The view of MCP's `estimate` in hosts with MCP Apps (`io.modelcontextprotocol/ui`, 2026-01-26):
 * the firm's calculator, editable. It speaks the extension's postMessage JSON-RPC with its host
 * directly (the extension's client library alone is over 9 KB gzipped, more than this whole app):
 * `ui/initialize` then `ui/notifications/initialized`; the host sends the tool's arguments
 * (`ui/notifications/tool-input`) and its result (`ui/notifications/tool-result`); a changed field
 * asks the host to call `estimate` again (`tools/call`). It reaches no network itself and holds no
 * credential: the server wrote the firm's name, accent and the calculators' fields into the page.
 */
import { formatUsd } from '../calculators/money.ts';
import { HEX_COLOR, onAccent } from '../protocol/accent.ts';

interface Field {
  type?: string;
  enum?: string[];
  label?: string;
  description?: string;
  unit?: string;
  default?: unknown;
  format?: string;
  formatMinimum?: string;
  formatMaximum?: string;
  minimum?: number;
  maximum?: number;
}
interface Calculator {
  slug: string;
  name: string;
  inputSchema: { properties: Record<string, Field>; required?: string[] };
}
interface Data {
  firm: { name: string; accent: string };
  calculators: Calculator[];
  /** US state names by code, for the options of a state field. */
  states?: Record<string, string>;
}
interface Estimate {
  calculator: string;
  name: string;
  inputs: Record<string, unknown>;
  headline?: string;
  figures: { label: string; amount: number; kind?: string }[];
  notes: string[];
  rules: string;
  disclaimer: string;
}
type Message = {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message: string };
};

const PROTOCOL = '2026-01-26';
const $ = (id: string) => document.getElementById(id)!;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}) =>
  Object.assign(document.createElement(tag), props) as HTMLElementTagNameMap[K];

const data = JSON.parse($('svc-data').textContent ?? '{}') as Data;
const root = document.documentElement;
if (HEX_COLOR.test(data.firm.accent)) {
  root.style.setProperty('--accent', data.firm.accent);
  root.style.setProperty('--on-accent', onAccent(data.firm.accent));
}
$('firm').textContent = data.firm.name;

// ---- the host: JSON-RPC 2.0 over postMessage, only with the window that embeds this one ----
const host = window.parent;
let nextId = 1;
const pending = new Map<number, (m: Message) => void>();
const send = (m: Omit<Message, 'jsonrpc'>) => host.postMessage({ jsonrpc: '2.0', ...m }, '*');
const request = (method: string, params: Record<string, unknown>) =>
  new Promise<Message>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    send({ id, method, params });
  });
const notify = (method: string, params: Record<string, unknown> = {}) => send({ method, params });

window.addEventListener('message', (event) => {
  if (event.source !== host) return;
  const m = event.data as Message;
  if (!m || m.jsonrpc !== '2.0') return;
  if (m.method === undefined) {
    const done = typeof m.id === 'number' ? pending.get(m.id) : undefined;
    if (done) {
      pending.delete(m.id as number);
      done(m);
    }
    return;
  }
  const params = m.params ?? {};
  if (m.id !== undefined) {
    // Requests from the host: ping and teardown need only an empty answer.
    send(
      m.method === 'ping' || m.method === 'ui/resource-teardown'
        ? { id: m.id, result: {} }
        : { id: m.id, error: { code: -32601, message: 'Method not found' } },
    );
    return;
  }
  if (m.method === 'ui/notifications/tool-input') {
    const args = (params.arguments ?? {}) as { calculator?: string; inputs?: Record<string, unknown> };
    if (args.calculator) show(args.calculator, args.inputs ?? {});
  } else if (m.method === 'ui/notifications/tool-result') {
    result(params as { structuredContent?: Estimate; isError?: boolean; content?: { text?: string }[] });
  } else if (m.method === 'ui/notifications/host-context-changed') {
    context(params);
  }
});

function context(c: Record<string, unknown>) {
  if (c.theme === 'dark' || c.theme === 'light') root.dataset.theme = c.theme;
  const font = ((c.styles as { variables?: Record<string, unknown> } | undefined)?.variables ?? {})[
    '--font-sans'
  ];
  if (typeof font === 'string' && /^[\w\s"',-]{1,200}$/.test(font))
    root.style.setProperty('--font-sans', font);
}

// ---- the form, from the calculator's field declarations ----
let current: Calculator | undefined;
let values: Record<string, unknown> = {};
const form = $('form') as HTMLFormElement;
const out = $('result');

function show(slug: string, inputs: Record<string, unknown>) {
  const calculator = data.calculators.find((c) => c.slug === slug);
  if (!calculator) return;
  const same = current === calculator;
  current = calculator;
  values = { ...values, ...inputs };
  $('title').textContent = calculator.name;
  if (same) return fill();
  form.replaceChildren(
    ...Object.entries(calculator.inputSchema.properties).map(([key, field]) => control(key, field)),
  );
  fill();
}

function control(key: string, field: Field): HTMLElement {
  const id = `f-${key}`;
  const label = el('label', { htmlFor: id, textContent: field.label ?? key });
  const wrap = el('div', { className: 'f' });
  let input: HTMLInputElement | HTMLSelectElement;
  if (field.enum) {
    input = el('select', { id, name: key });
    if (!calculatorRequires(key)) input.append(el('option', { value: '', textContent: '—' }));
    for (const v of field.enum) input.append(el('option', { value: v, textContent: data.states?.[v] ?? v }));
  } else if (field.type === 'boolean') {
    input = el('input', { id, name: key, type: 'checkbox' });
    wrap.className = 'f check';
    const text = el('div');
    text.append(label);
    wrap.append(input, text);
    hint(text, input, field, id);
    return wrap;
  } else {
    input = el('input', { id, name: key, type: field.format === 'date' ? 'date' : 'text' });
    if (field.format === 'date') {
      if (field.formatMinimum) input.min = field.formatMinimum;
      if (field.formatMaximum) input.max = field.formatMaximum;
    } else input.inputMode = field.unit === 'USD' ? 'decimal' : 'numeric';
    if (field.type === 'number' || field.type === 'integer') input.autocomplete = 'off';
  }
  wrap.append(label, input);
  return hint(wrap, input, field, id);
}

/** The field's description and its error line, both read out with the field. */
function hint(wrap: HTMLElement, input: HTMLElement, field: Field, id: string) {
  const error = el('span', { className: 'err', id: `${id}-e` });
  const ids = [`${id}-e`];
  if (field.description) {
    wrap.append(el('small', { id: `${id}-h`, textContent: field.description }));
    ids.unshift(`${id}-h`);
  }
  wrap.append(error);
  input.setAttribute('aria-describedby', ids.join(' '));
  return wrap;
}

const calculatorRequires = (key: string) => current?.inputSchema.required?.includes(key) ?? false;
const money = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

function fill() {
  for (const [key, field] of Object.entries(current!.inputSchema.properties)) {
    const input = form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement | null;
    if (!input) continue;
    const v = values[key] ?? field.default;
    if (input instanceof HTMLInputElement && input.type === 'checkbox') input.checked = v === true;
    else if (document.activeElement !== input)
      input.value =
        v === undefined || v === null
          ? ''
          : typeof v === 'number' && field.unit === 'USD'
            ? money(v)
            : String(v);
  }
}

/** The form's values as the calculator's inputs; a field that does not parse is marked and stops the call. */
function read(): Record<string, unknown> | undefined {
  const inputs: Record<string, unknown> = {};
  let ok = true;
  for (const [key, field] of Object.entries(current!.inputSchema.properties)) {
    const input = form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement;
    let problem = '';
    if (input instanceof HTMLInputElement && input.type === 'checkbox') inputs[key] = input.checked;
    else if (input.value.trim() === '') {
      if (calculatorRequires(key) && field.default === undefined) problem = 'Required.';
    } else if (field.type === 'number' || field.type === 'integer') {
      const n = Number(input.value.replace(/[$,\s]/g, ''));
      if (!Number.isFinite(n)) problem = 'Enter a number.';
      else inputs[key] = n;
    } else inputs[key] = input.value;
    mark(key, problem);
    if (problem) ok = false;
  }
  return ok ? inputs : undefined;
}

function mark(key: string, problem: string) {
  const input = form.elements.namedItem(key) as HTMLElement | null;
  if (!input) return;
  input.setAttribute('aria-invalid', problem ? 'true' : 'false');
  const error = document.getElementById(`f-${key}-e`);
  if (error) error.textContent = problem;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let asked = 0;
form.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(recompute, 350);
});
form.addEventListener('change', () => {
  clearTimeout(timer);
  recompute();
});
form.addEventListener('submit', (e) => e.preventDefault());

async function recompute() {
  if (!current) return;
  const inputs = read();
  if (!inputs) return;
  const mine = ++asked;
  out.setAttribute('aria-busy', 'true');
  const answer = await request('tools/call', {
    name: 'estimate',
    arguments: { calculator: current.slug, inputs },
  });
  if (mine !== asked) return;
  out.setAttribute('aria-busy', 'false');
  if (answer.error) return problem(answer.error.message);
  result(answer.result as { structuredContent?: Estimate; isError?: boolean; content?: { text?: string }[] });
}

function problem(text: string) {
  // A refusal names the fields at fault as `inputs.<field>: message.`: shown beside each field.
  let shown = false;
  for (const [, key, message] of text.matchAll(/inputs\.(\w+)[\w.]*: ([^.]+)\./g)) {
    mark(key!, `${message}.`);
    shown = true;
  }
  if (!shown) out.replaceChildren(el('p', { className: 'err', textContent: text }));
}

function result(r: { structuredContent?: Estimate; isError?: boolean; content?: { text?: string }[] }) {
  out.setAttribute('aria-busy', 'false');
  if (r.isError || !r.structuredContent) return problem(r.content?.[0]?.text ?? 'The estimate failed.');
  const e = r.structuredContent;
  if (!current || current.slug !== e.calculator) show(e.calculator, e.inputs);
  else {
    values = { ...e.inputs };
    fill();
  }
  const rows = e.figures.map((f) => {
    const tr = el('tr', { className: f.kind === 'total' ? 'total' : '' });
    tr.append(el('td', { textContent: f.label }), el('td', { textContent: formatUsd(f.amount) }));
    return tr;
  });
  const table = el('table');
  table.append(...rows);
  out.replaceChildren(
    ...(e.headline ? [el('p', { className: 'headline', textContent: e.headline })] : []),
    table,
    el('p', { className: 'rules', textContent: `Rules: ${e.rules}.` }),
    ...e.notes.map((n) => el('p', { className: 'note', textContent: n })),
    el('p', { className: 'disclaimer', textContent: e.disclaimer }),
  );
}

// ---- size: the host sizes the frame to the content ----
let lastHeight = 0;
new ResizeObserver(() => {
  const height = Math.ceil(document.documentElement.scrollHeight);
  if (height === lastHeight) return;
  lastHeight = height;
  notify('ui/notifications/size-changed', { height });
}).observe(document.body);

const init = await request('ui/initialize', {
  appInfo: { name: 'svc-estimate', version: '1.0.0' },
  appCapabilities: {},
  protocolVersion: PROTOCOL,
});
context(((init.result ?? {}) as { hostContext?: Record<string, unknown> }).hostContext ?? {});
notify('ui/notifications/initialized');
