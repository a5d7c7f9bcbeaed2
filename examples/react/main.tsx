/** @jsxImportSource react */
import { createRoot } from 'react-dom/client';
import { EstimatePage } from './app.tsx';

// The e2e suite bundles this file with esbuild; a real app renders EstimatePage wherever it likes.
const root = document.getElementById('root')!;
createRoot(root).render(<EstimatePage embedUrl={root.dataset.embed!} publishableKey={root.dataset.key!} />);
