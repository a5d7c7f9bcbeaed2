// Live-preview host page (/portal/preview): forwards the widget's DOM events to the portal page
// that frames it, addressed to the portal's own origin only (never "*").
for (const type of ['svc-ready', 'svc-resize', 'svc-result', 'svc-lead', 'svc-error']) {
  document.addEventListener(
    type,
    (event) => {
      window.parent.postMessage(
        { source: 'svc-preview', type, detail: event.detail },
        window.location.origin,
      );
    },
    true,
  );
}
