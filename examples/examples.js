// Shared by the example pages: logs widget events through Svc.on (which accepts messages only
// from the loader's own iframes on the embed origin) and wires the single-page-app buttons.
(() => {
  function wire() {
    const svc = window.Svc;
    if (!svc) return;
    const log = document.getElementById('log');
    for (const type of ['svc-ready', 'svc-resize', 'svc-result', 'svc-lead', 'svc-error']) {
      svc.on(type, (payload, { widgetId }) => {
        if (!log || type === 'svc-resize') return;
        const item = document.createElement('li');
        item.textContent = `${type} · ${widgetId} · ${JSON.stringify(payload)}`;
        log.appendChild(item);
      });
    }
    const slot = document.getElementById('slot');
    const show = (calculator) => {
      svc.unmount(slot);
      svc.mount(slot, calculator);
    };
    document.getElementById('show-rmd')?.addEventListener('click', () => show('rmd'));
    document.getElementById('show-estate')?.addEventListener('click', () => show('estate-tax'));
    document.getElementById('hide')?.addEventListener('click', () => svc.unmount(slot));
  }

  // An async loader may not have run yet; it has by the window's load event.
  if (window.Svc) wire();
  else window.addEventListener('load', wire, { once: true });
})();
