import { render } from 'preact';
import { App } from './app.tsx';
import { createBridge } from './bridge.ts';
import './styles.css';

/** Widget page entry: `/w/<slug>.html#widgetId=…&host=…` inside the loader's iframe. */
const root = document.getElementById('app')!;
const slug = root.dataset.calculator ?? 'estate-tax';
const bridge = createBridge();
render(<App slug={slug} bridge={bridge} />, root);

if (bridge) {
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    for (const type of ['svc-resize', 'svc-embed-resize', 'alt-embed-resize'] as const)
      bridge.emit(type, { height });
  }).observe(document.body);
  bridge.emit('svc-ready', { calculator: slug });
}
