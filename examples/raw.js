// The origin check a host developer writes when reading the widget's messages directly.
(() => {
  const loader = document.querySelector('script[src$="/loader.js"]');
  const EMBED_ORIGIN = new URL(loader.src).origin;
  const log = document.getElementById('log');
  window.addEventListener('message', (event) => {
    if (event.origin !== EMBED_ORIGIN) return; // another site
    const frames = [...document.querySelectorAll('iframe')].map((f) => f.contentWindow);
    if (!frames.includes(event.source)) return; // a frame this page did not mount
    const { type, v, payload } = event.data ?? {};
    if (v !== 1 || typeof type !== 'string' || type === 'svc-hello') return;
    if (/resize$/.test(type)) return;
    const item = document.createElement('li');
    item.textContent = `${type} · ${JSON.stringify(payload)}`;
    log.appendChild(item);
  });
})();
