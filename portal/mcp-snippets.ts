/** Connection snippets for AI tools, with the key filled in (README "MCP"). */
export function mcpSnippets(mcpUrl: string, apiKey: string) {
  const header = `Bearer ${apiKey}`;
  return [
    {
      id: 'claude',
      label: 'Claude Code',
      file: 'Terminal',
      code: `claude mcp add --transport http svc ${mcpUrl} \\\n  --header "Authorization: ${header}"`,
    },
    {
      id: 'cursor',
      label: 'Cursor',
      file: '.cursor/mcp.json',
      code: JSON.stringify(
        { mcpServers: { svc: { url: mcpUrl, headers: { Authorization: header } } } },
        null,
        2,
      ),
    },
    {
      id: 'vscode',
      label: 'VS Code',
      file: '.vscode/mcp.json',
      code: JSON.stringify(
        { servers: { svc: { type: 'http', url: mcpUrl, headers: { Authorization: header } } } },
        null,
        2,
      ),
    },
  ];
}
