import { useState } from 'preact/hooks';
import type { Member } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { Badge, Card, ErrorNote, Loading, PageHeader, TableWrap } from '../components/ui.tsx';
import { formatRelative } from '../format.ts';
import { canManage, session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

const ROLES = [
  { value: 'viewer', label: 'Viewer — sees leads, licenses and activity' },
  { value: 'admin', label: 'Admin — also manages keys, leads and members' },
  { value: 'owner', label: 'Owner — also manages owners' },
];

export function MembersPage() {
  const { data, error, reload } = useResource(() => api.get('members'));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('viewer');
  const [invited, setInvited] = useState<string | null>(null);
  const manageable = canManage();
  const pending = useResource(() =>
    manageable ? api.get('members/invitations') : Promise.resolve({ data: [] }),
  );
  const [actionError, setActionError] = useState<PortalError | null>(null);
  const manage = canManage();
  const isOwner = session$.value?.firm.role === 'owner';

  const invite = async (event: Event) => {
    event.preventDefault();
    setActionError(null);
    try {
      const res = await api.post('members', { email, role });
      setInvited(
        res.status === 'invited'
          ? `Invitation sent to ${email}. They join when they accept it (within 72 hours).`
          : `${email} is already a member: their role is now ${role}.`,
      );
      setEmail('');
      reload();
      pending.reload();
    } catch (e) {
      setActionError(e as PortalError);
    }
  };
  const remove = async (m: Member) => {
    if (!window.confirm(`Remove ${m.email} from the firm? They are signed out at once.`)) return;
    try {
      await api.delete(`members/${encodeURIComponent(m.userId)}`);
      setActionError(null);
      reload();
    } catch (e) {
      setActionError(e as PortalError);
    }
  };

  return (
    <div class="page">
      <PageHeader title="Members" lead="The people of your firm who can sign in to this portal." />
      {manage ? (
        <Card
          title="Invite someone"
          id="invite"
          description="They get an invitation by e-mail and become a member only when they accept it."
        >
          <form class="inline-form" onSubmit={invite}>
            <div class="field grow">
              <label for="invite-email">E-mail</label>
              <input
                id="invite-email"
                type="email"
                required
                value={email}
                onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
              />
            </div>
            <div class="field">
              <label for="invite-role">Role</label>
              <select
                id="invite-role"
                value={role}
                onChange={(e) => setRole((e.target as HTMLSelectElement).value)}
              >
                {ROLES.filter((r) => r.value !== 'owner' || isOwner).map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" class="button button-primary">
              Send invite
            </button>
          </form>
          {invited ? (
            <p class="success-note" role="status">
              {invited}
            </p>
          ) : null}
        </Card>
      ) : null}
      <ErrorNote error={error ?? actionError} />
      <Card title="People" id="people">
        {!data ? (
          <Loading />
        ) : (
          <TableWrap label="Member list">
            <table class="table table-stack">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Last sign-in here</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((m) => (
                  <tr key={m.userId}>
                    <td>
                      <span class="cell-main">{m.email}</span>
                      {m.you ? <span class="cell-sub">you</span> : null}
                    </td>
                    <td data-label="Role">
                      <Badge tone={m.role === 'viewer' ? 'neutral' : 'accent'}>{m.role}</Badge>
                    </td>
                    <td class="num nowrap" data-label="Last sign-in here">
                      {formatRelative(m.lastSignInAt)}
                    </td>
                    <td class="actions">
                      {manage && !m.you && (m.role !== 'owner' || isOwner) ? (
                        <button
                          type="button"
                          class="button button-small button-danger"
                          onClick={() => remove(m)}
                        >
                          Remove<span class="visually-hidden"> {m.email}</span>
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Card>
      {manageable && pending.data && pending.data.data.length > 0 ? (
        <Card
          title="Waiting for an answer"
          id="invitations"
          description="Invitations your firm sent. Nobody joins until they accept."
        >
          <TableWrap label="Open invitations">
            <table class="table table-stack">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Expires</th>
                </tr>
              </thead>
              <tbody>
                {pending.data.data.map((i) => (
                  <tr key={i.id}>
                    <td>
                      <span class="cell-main">{i.email}</span>
                    </td>
                    <td data-label="Role">
                      <Badge tone="neutral">{i.role}</Badge>
                    </td>
                    <td class="num nowrap" data-label="Expires">
                      {formatRelative(i.expiresAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </Card>
      ) : null}
    </div>
  );
}
