/** @jsxImportSource react */
/**
 * A small React page that embeds a calculator through the typed SDK (`{embed_url}/embed.mjs`).
 * Bundle it with your app as usual; the SDK itself is loaded from the embed host at run time.
 *
 *   import { createRoot } from 'react-dom/client';
 *   createRoot(document.getElementById('root')!).render(<EstimatePage embedUrl="https://embed.svc.example" publishableKey="svc_pk_…" />);
 */
import { useEffect, useRef, useState } from 'react';
import type * as Sdk from '../../sdk/embed-api';

export function EstimatePage({ embedUrl, publishableKey }: { embedUrl: string; publishableKey: string }) {
  const slot = useRef<HTMLDivElement>(null);
  const [total, setTotal] = useState<string>();
  useEffect(() => {
    let sdk: typeof Sdk | undefined;
    let stop = () => {};
    let gone = false;
    void (async () => {
      sdk = (await import(/* @vite-ignore */ `${embedUrl}/embed.mjs`)) as typeof Sdk;
      if (gone || !slot.current) return;
      stop = sdk.on('svc-result', (payload) => setTotal(String(payload.outputs.totalTax)));
      await sdk.mount(slot.current, { key: publishableKey, calculator: 'estate-tax', theme: 'light' });
    })();
    return () => {
      gone = true;
      stop();
      if (slot.current) sdk?.unmount(slot.current);
    };
  }, [embedUrl, publishableKey]);
  return (
    <main>
      <h1>Plan your estate</h1>
      <div ref={slot} />
      {total !== undefined && <p id="react-total">Total estate tax from the widget: {total}</p>}
    </main>
  );
}
