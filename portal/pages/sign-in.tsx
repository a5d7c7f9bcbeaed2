import { startAuthentication } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { api, PortalError } from '../api.ts';
import { ErrorNote } from '../components/ui.tsx';
import { continueTo } from '../router.ts';
import { loadSession } from '../session.ts';

/** Sign in by e-mail link or passkey. `next` is where to continue (e.g. a Connect request). */
export function SignInPage(props: { next?: string }) {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const sendLink = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.post('auth/email', { email, ...(props.next ? { next: props.next } : {}) });
      setSentTo(email);
    } catch (e) {
      setError(e as PortalError);
    } finally {
      setBusy(false);
    }
  };

  const passkey = async () => {
    setBusy(true);
    setError(null);
    try {
      const { challengeId, options } = await api.post('auth/passkey/options');
      const response = await startAuthentication({ optionsJSON: options });
      const { next } = await api.post('auth/passkey/verify', {
        challengeId,
        response,
        ...(props.next ? { next: props.next } : {}),
      });
      await loadSession();
      continueTo(next ?? props.next ?? '/portal/');
    } catch (e) {
      setError(
        e instanceof PortalError ? e : new Error('The passkey sign-in was cancelled or failed. Try again.'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="auth-page">
      <main class="auth-card" id="main">
        <span class="brand-mark brand-mark-large" aria-hidden="true">
          s
        </span>
        <h1>Sign in to your firm’s portal</h1>
        {props.next?.startsWith('/oauth/authorize') ? (
          <p class="muted">
            An application is asking to connect to your firm. Sign in to review the request.
          </p>
        ) : null}
        {sentTo ? (
          <div class="notice" role="status">
            <p>
              <strong>Check your inbox.</strong> If {sentTo} belongs to a member of a firm, a sign-in link is
              on its way. It works once, for 15 minutes.
            </p>
            <button type="button" class="button button-ghost" onClick={() => setSentTo(null)}>
              Use another address
            </button>
          </div>
        ) : (
          <form onSubmit={sendLink} class="stack">
            <div class="field">
              <label for="email">Work e-mail</label>
              <input
                id="email"
                type="email"
                autocomplete="username webauthn"
                required
                value={email}
                onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
              />
            </div>
            <button type="submit" class="button button-primary button-block" disabled={busy}>
              Email me a sign-in link
            </button>
          </form>
        )}
        <div class="divider">
          <span>or</span>
        </div>
        <button type="button" class="button button-block" onClick={passkey} disabled={busy}>
          Sign in with a passkey
        </button>
        <ErrorNote error={error} />
        <p class="muted small">
          No password to remember: we e-mail you a link, or you use a passkey you added.
        </p>
      </main>
    </div>
  );
}
