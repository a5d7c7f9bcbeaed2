/**
 * A chat host's page, as e2e/mcp-app.spec.ts bundles it for Chromium: the MCP Apps extension's own
 * host-side bridge (`AppBridge` and `PostMessageTransport` from @modelcontextprotocol/ext-apps)
 * renders the view a tool names. Like a real host it keeps the MCP connection (and its credential)
 * on its own side: `mcpListTools`, `mcpReadResource` and `mcpCallTool` are the test's real MCP
 * client, reached through functions Playwright exposes. Driven only by what the server advertises:
 * the tool whose `_meta.ui.resourceUri` names a view, that resource's MIME type and its CSP.
 */
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
}
type Json = Record<string, unknown>;
interface Mcp {
  mcpListTools(): Promise<{ name: string; _meta?: Json }[]>;
  mcpReadResource(uri: string): Promise<{ contents: { mimeType?: string; text?: string; _meta?: Json }[] }>;
  mcpCallTool(params: { name: string; arguments?: Json }): Promise<Json>;
  /** The question the model asked: the tool's arguments. */
  svcAsk: Json;
  svcHost: { resourceUri?: string; csp?: string; initialized?: boolean; toolCalls: number; error?: string };
  /** The bridge, for the test to change the host's context (its theme). */
  svcBridge?: AppBridge;
}
const w = window as unknown as Window & Mcp;
w.svcHost = { toolCalls: 0 };

/** The policy the host enforces from the resource's declaration (the extension's defaults: nothing beyond inline). */
function policyOf(csp: Csp = {}): string {
  const list = (domains: string[] | undefined, none = "'none'") =>
    domains?.length ? domains.join(' ') : none;
  const resources = list(csp.resourceDomains, '');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src ${list(csp.resourceDomains)}`,
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    "base-uri 'none'",
  ].join('; ');
}

async function main() {
  const tools = await w.mcpListTools();
  const tool = tools.find((t) => getToolUiResourceUri(t));
  if (!tool) throw new Error('no tool names a view');
  const uri = getToolUiResourceUri(tool)!;
  const content = (await w.mcpReadResource(uri)).contents[0]!;
  if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`not an MCP App: ${content.mimeType}`);
  const csp = policyOf(((content._meta?.ui ?? {}) as { csp?: Csp }).csp);
  Object.assign(w.svcHost, { resourceUri: uri, csp });

  const frame = document.createElement('iframe');
  frame.title = 'svc estimate';
  // An opaque origin: scripts run, nothing of the host page is reachable.
  frame.setAttribute('sandbox', 'allow-scripts');
  document.getElementById('chat')!.append(frame);

  const bridge = new AppBridge(
    null,
    { name: 'svc-test-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    {
      hostContext: {
        theme: 'light',
        displayMode: 'inline',
        platform: 'web',
        containerDimensions: { maxHeight: 4000, width: frame.clientWidth },
      },
    },
  );
  bridge.oncalltool = async (params) => {
    w.svcHost.toolCalls++;
    return (await w.mcpCallTool(params as { name: string; arguments?: Json })) as never;
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = async () => {
    w.svcHost.initialized = true;
    // The model called the tool: the host hands the view its arguments, then its result.
    await bridge.sendToolInput({ arguments: w.svcAsk });
    const result = await w.mcpCallTool({ name: tool.name, arguments: w.svcAsk });
    await bridge.sendToolResult(result as never);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  w.svcBridge = bridge;
  const html = content.text ?? '';
  frame.srcdoc = html.replace(
    /<head>/i,
    `<head><meta http-equiv="Content-Security-Policy" content="${csp.replace(/"/g, '&quot;')}">`,
  );
}

main().catch((error: unknown) => {
  w.svcHost.error = error instanceof Error ? error.message : String(error);
});
