import { useState } from 'preact/hooks';
import { api, type PortalError } from '../api.ts';
import { ErrorNote } from '../components/ui.tsx';
import { continueTo } from '../router.ts';
import { loadSession } from '../session.ts';

/**
 * The page an e-mailed link opens. The token sits in the URL fragment (never sent to a server
 * in a request line or Referer); it is redeemed only when the person presses the button, so mail
 * scanners that open links do not use it up.
 */
export function LinkSignInPage() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const [error, setError] = useState<PortalError | null>(null);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    try {
      const { next } = await api.post('auth/link', { token });
      history.replaceState(null, '', '/portal/');
      await loadSession();
      continueTo(next ?? '/portal/');
    } catch (e) {
      setError(e as PortalError);
      setBusy(false);
    }
  };
  return (
    <div class="auth-page">
      <main class="auth-card" id="main">
        <span class="brand-mark brand-mark-large" aria-hidden="true">
          s
        </span>
        <h1>Continue to your portal</h1>
        <p class="muted">This link signs you in once. Press continue on the device you want to use.</p>
        {token ? (
          <button type="button" class="button button-primary button-block" onClick={go} disabled={busy}>
            Continue
          </button>
        ) : (
          <p class="error-note">This link is incomplete. Copy the whole link from the e-mail.</p>
        )}
        <ErrorNote error={error} />
        {error ? (
          <a class="button button-block" href="/portal/">
            Ask for a new link
          </a>
        ) : null}
      </main>
    </div>
  );
}
