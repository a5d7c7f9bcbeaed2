// First, so that it runs before the calculators' schemas are built.
import './zod-jitless.ts';
import { render } from 'preact';
import { App } from './app.tsx';
import { createBridge } from './bridge.ts';
import { watchHeight } from './resize.ts';
import './styles.css';

/** Widget page entry: `/w/<slug>.html#widgetId=…&host=…` inside the loader's iframe. */
const root = document.getElementById('app');
if (root) {
  const slug = root.dataset.calculator ?? '';
  const bridge = createBridge();
  render(<App slug={slug} bridge={bridge} />, root);
  if (bridge) {
    watchHeight(document.body, (height) => {
      // The legacy names too, for host pages written before svc-resize.
      for (const type of ['svc-resize', 'svc-embed-resize', 'alt-embed-resize'] as const)
        bridge.emit(type, { height });
    });
    bridge.emit('svc-ready', { calculator: slug });
  }
}
