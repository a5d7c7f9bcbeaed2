import { startRegistration } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import type { Passkey, SessionRow } from '../../server/routes/portal/types.ts';
import { api, PortalError } from '../api.ts';
import { Card, Empty, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { formatDate, formatRelative } from '../format.ts';
import { navigate } from '../router.ts';
import { session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

function browserOf(ua: string | null): string {
  if (!ua) return 'Unknown browser';
  if (/Edg\//.test(ua)) return 'Edge';
  if (/Chrome\//.test(ua)) return 'Chrome';
  if (/Firefox\//.test(ua)) return 'Firefox';
  if (/Safari\//.test(ua)) return 'Safari';
  return 'Browser';
}

export function SecurityPage() {
  const passkeys = useResource(() => api.get('passkeys'));
  const sessions = useResource(() => api.get('sessions'));
  const [error, setError] = useState<Error | null>(null);
  const [name, setName] = useState('');

  const addPasskey = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const { challengeId, options } = await api.post('passkeys/options');
      const response = await startRegistration({ optionsJSON: options });
      await api.post('passkeys', { challengeId, response, name: name || 'Passkey' });
      setName('');
      passkeys.reload();
    } catch (e) {
      setError(e instanceof PortalError ? e : new Error('Adding the passkey was cancelled or failed.'));
    }
  };
  const removePasskey = async (p: Passkey) => {
    if (!window.confirm(`Remove the passkey “${p.name}”?`)) return;
    await api.delete(`passkeys/${encodeURIComponent(p.id)}`).catch((e: PortalError) => setError(e));
    passkeys.reload();
  };
  const endSession = async (s: SessionRow) => {
    await api.post(`sessions/${encodeURIComponent(s.id)}/revoke`).catch((e: PortalError) => setError(e));
    if (s.current) {
      session$.value = null;
      navigate('/portal/', true);
    } else sessions.reload();
  };

  return (
    <div class="page">
      <PageHeader title="Sign-in & security" lead={session$.value?.user.email} />
      <ErrorNote error={error ?? passkeys.error ?? sessions.error} />
      <Card
        title="Passkeys"
        id="passkeys"
        description="Sign in with your fingerprint, face or device PIN instead of an e-mailed link."
      >
        {!passkeys.data ? (
          <Loading />
        ) : passkeys.data.data.length === 0 ? (
          <Empty title="No passkeys yet">Add one on each device you use for the portal.</Empty>
        ) : (
          <ul class="list">
            {passkeys.data.data.map((p) => (
              <li key={p.id} class="list-row">
                <span>
                  <span class="cell-main">{p.name}</span>
                  <span class="cell-sub">
                    Added {formatDate(p.createdAt)} · last used {formatRelative(p.lastUsedAt)}
                  </span>
                </span>
                <button
                  type="button"
                  class="button button-small button-danger"
                  onClick={() => removePasskey(p)}
                >
                  Remove<span class="visually-hidden"> {p.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <form class="inline-form" onSubmit={addPasskey}>
          <div class="field grow">
            <label for="passkey-name">Name of this device</label>
            <input
              id="passkey-name"
              maxLength={60}
              placeholder="Office laptop"
              value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </div>
          <button type="submit" class="button button-primary">
            Add a passkey
          </button>
        </form>
      </Card>
      <Card title="Where you are signed in" id="sessions" description="Sign out a device you no longer use.">
        {!sessions.data ? (
          <Loading />
        ) : (
          <ul class="list">
            {sessions.data.data.map((s) => (
              <li key={s.id} class="list-row">
                <span>
                  <span class="cell-main">
                    {browserOf(s.userAgent)}{' '}
                    {s.current ? <span class="badge badge-accent">this device</span> : null}
                  </span>
                  <span class="cell-sub">
                    Signed in {formatDate(s.createdAt)} by{' '}
                    {s.method === 'passkey' ? 'passkey' : 'e-mail link'} · active{' '}
                    {formatRelative(s.lastSeenAt)}
                  </span>
                </span>
                <button type="button" class="button button-small" onClick={() => endSession(s)}>
                  Sign out
                </button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
