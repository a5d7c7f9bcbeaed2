import { useEffect, useState } from 'preact/hooks';
import type { InvitationOffer } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { navigate } from '../router.ts';
import { loadSession } from '../session.ts';

const ROLE_MEANS: Record<string, string> = {
  owner: 'everything, including billing and the firm’s owners',
  admin: 'leads, licenses, settings and members (not owners)',
  viewer: 'read leads and settings; no exports of personal data',
};

/**
 * The page an invitation mail opens (`/portal/invitation#token=…`). The invitee sees the firm and
 * the role, then accepts (joins and is signed in as themselves) or declines. Nothing happens
 * until they press a button, so mail scanners that open links change nothing.
 */
export function InvitationPage() {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const [invitation, setInvitation] = useState<InvitationOffer | null>(null);
  const [error, setError] = useState<PortalError | null>(null);
  const [busy, setBusy] = useState(false);
  const [declined, setDeclined] = useState(false);
  useEffect(() => {
    if (!token) return;
    api
      .post('invitations/lookup', { token })
      .then(setInvitation)
      .catch((e: PortalError) => setError(e));
  }, [token]);
  const answer = async (accept: boolean) => {
    setBusy(true);
    try {
      if (accept) {
        const { next } = await api.post('invitations/accept', { token });
        history.replaceState(null, '', '/portal/');
        await loadSession();
        navigate(next ?? '/portal/', true);
      } else {
        await api.post('invitations/decline', { token });
        setDeclined(true);
      }
    } catch (e) {
      setError(e as PortalError);
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
        {!token ? (
          <>
            <h1>Invitation</h1>
            <p class="error-note">This link is incomplete. Copy the whole link from the e-mail.</p>
          </>
        ) : declined ? (
          <>
            <h1>Invitation declined</h1>
            <p class="muted">Nobody was added. You can close this page.</p>
          </>
        ) : error && !invitation ? (
          <>
            <h1>This invitation cannot be used</h1>
            <ErrorNote error={error} />
          </>
        ) : !invitation ? (
          <Loading />
        ) : (
          <>
            <h1>Join {invitation.firmName}?</h1>
            <dl class="facts facts-stacked">
              <div>
                <dt>Firm</dt>
                <dd>
                  <strong>{invitation.firmName}</strong>
                </dd>
              </div>
              <div>
                <dt>Your role</dt>
                <dd>
                  <strong>{invitation.role}</strong>
                  <span class="muted"> — {ROLE_MEANS[invitation.role] ?? ''}</span>
                </dd>
              </div>
              <div>
                <dt>Sent to</dt>
                <dd>{invitation.email}</dd>
              </div>
            </dl>
            <p class="muted">
              Accepting signs you in as {invitation.email}. If you do not know this firm, decline.
            </p>
            <ErrorNote error={error} />
            <div class="button-row">
              <button
                type="button"
                class="button button-primary"
                disabled={busy}
                onClick={() => answer(true)}
              >
                Accept and sign in
              </button>
              <button type="button" class="button" disabled={busy} onClick={() => answer(false)}>
                Decline
              </button>
            </div>
          </>
        )}
      </main>
    </div>
  );
}
