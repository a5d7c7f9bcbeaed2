import type { RunningServers } from './servers.ts';

type Banner = Pick<
  RunningServers,
  'apiUrl' | 'embedUrl' | 'examplesUrl' | 'portalUrl' | 'demo' | 'demoSignInLink'
>;

const AGAIN = 'npm run svc -- demo credentials';

/**
 * What `npm start` prints once the server answers: where everything is and, only on the start
 * that created the demo firm outside production, the demo credentials (issue 23). Later starts
 * name the command that prints them again; with no demo firm (SEED_DEMO=false) nothing is said.
 */
export function bannerOf(running: Banner, nodeEnv: string, destinationBaseUrls?: string): string {
  const where = [
    '',
    'svc is running',
    // Issue 42: CRM destinations are not going to the vendors; say so where an operator looks first.
    ...(destinationBaseUrls
      ? [
          `  WARNING    DESTINATION_BASE_URLS is set: CRM destinations go to ${destinationBaseUrls}, not to the vendors`,
        ]
      : []),
    `  API        ${running.apiUrl}/v1   (docs: ${running.apiUrl}/docs)`,
    `  Embed host ${running.embedUrl}/loader.js`,
    `  Examples   ${running.examplesUrl}/`,
    `  Portal     ${running.portalUrl}/portal/`,
    '',
  ];
  const { demo } = running;
  if (!demo.accountId) return where.join('\n');
  if (!demo.created || nodeEnv === 'production')
    return [
      ...where,
      `Demo firm ${demo.accountId}: its credentials and a fresh owner sign-in link: ${AGAIN}`,
      '',
    ].join('\n');
  return [...where, ...credentialLines(running), ''].join('\n');
}

function credentialLines({ demo, apiUrl, demoSignInLink }: Banner): string[] {
  return [
    'Demo credentials (printed once, by the start that created the demo firm)',
    `  Publishable key  ${demo.publishableKey}`,
    '                   goes in pages: <script … data-key="svc_pk_…">; opens embed sessions only',
    `  Secret key       ${demo.licenseKey}`,
    '                   for plugins and servers (licenses/activate); never put it in a page',
    `  API key          ${demo.apiKey}   (every scope; REST and MCP)`,
    '  The demo license allows localhost; development hosts open test-mode sessions.',
    `  Account          ${demo.accountId}`,
    `  License          ${demo.licenseId ?? '(not found)'}`,
    `  More leads       npm run svc -- demo seed --account ${demo.accountId} --leads 10000`,
    `  MCP              ${apiUrl}/v1/mcp   (Authorization: Bearer <API key>)`,
    ...(demoSignInLink
      ? [
          `  Portal           ${demoSignInLink}`,
          '                   (sign-in link for demo@svc.test, owner; single use, 1 hour)',
        ]
      : []),
    `  Again            ${AGAIN}`,
  ];
}
