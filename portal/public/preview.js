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

// The page's own height after each change, so the portal sizes this frame to what a visitor sees.
const tellHeight = () =>
  window.parent.postMessage(
    { source: 'svc-preview', type: 'preview-height', detail: document.documentElement.scrollHeight },
    window.location.origin,
  );
for (const type of ['svc-ready', 'svc-resize'])
  document.addEventListener(type, () => requestAnimationFrame(tellHeight), true);
