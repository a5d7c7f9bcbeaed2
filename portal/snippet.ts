/** The paste-ready embed code: one placeholder per calculator and the loader with the publishable key. */
export function snippetOf(embedUrl: string, key: string, calculators: string[]) {
  const divs = calculators.map((slug) => `<div data-svc-calculator="${slug}"></div>`).join('\n');
  return `${divs}\n<script src="${embedUrl}/loader.js" data-key="${key || 'SVC-…'}" async></script>`;
}
