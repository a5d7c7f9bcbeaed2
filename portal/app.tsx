import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { api } from './api.ts';
import { Link, Loading } from './components/ui.tsx';
import { ActivityPage } from './pages/activity.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { ConnectPage } from './pages/connect.tsx';
import { ConnectedAppsPage } from './pages/connected-apps.tsx';
import { EmbedPage } from './pages/embed.tsx';
import { InvitationPage } from './pages/invitation.tsx';
import { LeadDetailPage } from './pages/lead-detail.tsx';
import { LeadsPage } from './pages/leads.tsx';
import { LicensesPage } from './pages/licenses.tsx';
import { LinkSignInPage } from './pages/link-sign-in.tsx';
import { McpConsentPage } from './pages/mcp-consent.tsx';
import { MembersPage } from './pages/members.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { RulesPage } from './pages/rules.tsx';
import { SecurityPage } from './pages/security.tsx';
import { SettingsDestinationsPage } from './pages/settings-destinations.tsx';
import { SettingsFirmPage } from './pages/settings-firm.tsx';
import { SettingsWebhooksPage } from './pages/settings-webhooks.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { location$, navigate } from './router.ts';
import { session$ } from './session.ts';

const NAV: { href: string; label: string; section?: string }[] = [
  { href: '/portal/', label: 'Overview' },
  { href: '/portal/leads', label: 'Leads' },
  { href: '/portal/licenses', label: 'Licenses' },
  { href: '/portal/embed', label: 'Embed code' },
  { href: '/portal/activity', label: 'Activity' },
  { href: '/portal/rules', label: 'Rules and sources' },
  { href: '/portal/settings/api-keys', label: 'API keys', section: 'Settings' },
  { href: '/portal/settings/connected-apps', label: 'Connected apps', section: 'Settings' },
  { href: '/portal/settings/members', label: 'Members', section: 'Settings' },
  { href: '/portal/settings/security', label: 'Sign-in & security', section: 'Settings' },
  { href: '/portal/settings/firm', label: 'Firm', section: 'Settings' },
  { href: '/portal/settings/webhooks', label: 'Webhooks', section: 'Settings' },
  { href: '/portal/settings/destinations', label: 'Destinations', section: 'Settings' },
];

const PAGES: Record<string, () => ComponentChildren> = {
  '/portal/': () => <OverviewPage />,
  '/portal/leads': () => <LeadsPage />,
  '/portal/licenses': () => <LicensesPage />,
  '/portal/embed': () => <EmbedPage />,
  '/portal/activity': () => <ActivityPage />,
  '/portal/rules': () => <RulesPage />,
  '/portal/settings/api-keys': () => <ApiKeysPage />,
  '/portal/settings/connected-apps': () => <ConnectedAppsPage />,
  '/portal/settings/members': () => <MembersPage />,
  '/portal/settings/security': () => <SecurityPage />,
  '/portal/settings/firm': () => <SettingsFirmPage />,
  '/portal/settings/webhooks': () => <SettingsWebhooksPage />,
  '/portal/settings/destinations': () => <SettingsDestinationsPage />,
};

export function App() {
  const path = location$.value.split('?')[0]!;
  const session = session$.value;
  if (path === '/portal/sign-in/link') return <LinkSignInPage />;
  if (path === '/portal/invitation') return <InvitationPage />;
  if (session === undefined) return <Loading />;
  // The two consent pages: the server chose which by the path (server/routes/oauth/consent-page.ts).
  const consent = path.replace(/\/+$/, '');
  if (consent === '/oauth/authorize' || consent === '/oauth/authorize/mcp') {
    if (!session) return <SignInPage next={location$.value} />;
    return consent === '/oauth/authorize/mcp' ? <McpConsentPage /> : <ConnectPage />;
  }
  // Signed out on a deep link (e.g. a lead alert's "open in the portal"): continue there after sign-in.
  if (!session) return <SignInPage {...(path !== '/portal/' ? { next: location$.value } : {})} />;
  const page = PAGES[path] ?? PAGES[`${path}/`] ?? paramPage(path);
  return <Shell path={path}>{page ? page() : <NotFound />}</Shell>;
}

/** Pages with an id in the path (`/portal/leads/{leadId}`: the lead alert e-mail links there). */
function paramPage(path: string): (() => ComponentChildren) | undefined {
  const lead = /^\/portal\/leads\/([A-Za-z0-9_-]{1,64})$/.exec(path);
  if (lead) return () => <LeadDetailPage leadId={lead[1]!} />;
  return undefined;
}

function NotFound() {
  return (
    <div class="page">
      <h1>Page not found</h1>
      <p class="lead">
        That address is not part of the portal. <Link href="/portal/">Go to the overview</Link>.
      </p>
    </div>
  );
}

function Shell(props: { path: string; children: ComponentChildren }) {
  const session = session$.value!;
  const signOut = async () => {
    await api.post('session/sign-out').catch(() => {});
    session$.value = null;
    navigate('/portal/', true);
  };
  // On phones the navigation scrolls sideways: keep the current page's link in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again whenever the page changes
  useEffect(() => {
    document
      .querySelector('.nav-link[aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [props.path]);
  let section: string | undefined;
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <aside class="sidebar">
        <div class="sidebar-inner">
          <div class="brand">
            <span class="brand-mark" aria-hidden="true">
              s
            </span>
            <div>
              <p class="brand-firm">{session.firm.name}</p>
              <p class="brand-user">
                {session.user.email} · {session.firm.role}
              </p>
            </div>
          </div>
          <nav aria-label="Portal">
            <ul class="nav">
              {NAV.map((item) => {
                const heading = item.section && item.section !== section ? item.section : undefined;
                section = item.section;
                return (
                  <li key={item.href}>
                    {heading ? <p class="nav-section">{heading}</p> : null}
                    <Link
                      href={item.href}
                      class="nav-link"
                      current={
                        item.href === props.path ||
                        `${props.path}/` === item.href ||
                        props.path.startsWith(`${item.href}/`)
                      }
                    >
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <button type="button" class="button button-ghost sign-out" onClick={signOut}>
            Sign out
          </button>
        </div>
      </aside>
      <main id="main" class="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
