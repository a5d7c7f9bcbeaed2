import { render } from 'preact';
import { App } from './app.tsx';
import { loadSession } from './session.ts';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  render(<App />, root);
  loadSession().catch(() => {
    root.textContent = 'The portal could not reach the server. Reload the page to try again.';
  });
}
