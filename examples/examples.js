// Shared by the example pages: logs every widget event, and wires the SPA buttons.
// Listeners go through window.Svc, which accepts messages only from its own iframes.
(() => {
  const log = document.getElementById('log');
  const types = ['svc-ready', 'svc-resize', 'svc-result', 'svc-lead', 'svc-error'];
  window.svcEvents = [];
  for (const type of types) {
    window.Svc?.on(type, (payload, meta) => {
      window.svcEvents.push({ type, payload, widgetId: meta.widgetId });
      if (log && type !== 'svc-resize') {
        const item = document.createElement('li');
        item.textContent = `${type} ${JSON.stringify(payload)}`;
        log.appendChild(item);
      }
    });
  }
  const slot = document.getElementById('slot');
  document.getElementById('show-rmd')?.addEventListener('click', () => window.Svc?.mount(slot, 'rmd'));
  document.getElementById('hide')?.addEventListener('click', () => window.Svc?.unmount(slot));
})();
