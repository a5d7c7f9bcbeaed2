// The layering, written down so that `npm test` keeps it true (server/checks/layers.test.ts runs it; `npm run layers` prints it).
// The rules bind production code: tests (`*.test.ts`, `*.spec.ts`) and `server/test-support/` may
// reach across layers to set a scene. docs/development.md ("Layout") says the same in prose.
const TESTS = '\\.(test|spec)\\.tsx?$|^server/test-support/';
const BROWSER = '^(widget|loader|portal|sdk)/';

// The domain's subjects, lowest first: a subject imports only subjects before it (docs/development.md,
// "The domain's subjects"). A subject that needs one after it takes it as a dependency handed in by
// server/main/services.ts (the portal's grant ending, for example) or the shared piece moves down.
const SUBJECTS = [
  'caches', // lookup caches in front of the database: build on nothing else of the domain
  'backup', // database backups and restores: build on the engine only
  'credentials', // key formats, hashing, token signing, scopes, PKCE
  'accounts', // firms, their people, sign-in, settings, consent texts
  'licensing', // licenses, keys, plans, domains, status, seats
  'activation', // site activations, token refresh, embed sessions, Connect codes
  'billing', // Stripe checkout, portal and subscription sync
  'outbox', // events and alert mails queued in the caller's transaction, digests
  'funnel', // the funnel's counters (views, calculations, leads) and its report
  'leads', // intake, spam rules, queries, figures, privacy erasure
  'destinations', // CRM vendors: each connector's request, the lead's CRM note, the name split, E.164 phones
  'results', // calculations and PDF reports
  'rules', // the law's changelog recorded once and announced to the firms it touches
  'delivery', // webhook and mail workers, endpoints, retention
  'oauth', // OAuth clients, grants and MCP consent
  'access', // authenticating a request: every credential kind, over licensing and OAuth
  'portal', // the portal's firm views, built over all of the above
  'exports', // files an MCP tool makes (CSV, JSON, a PDF report), read back by the same credential
  'demo', // the demo firm's seed
];
const subjectOrder = SUBJECTS.slice(0, -1).map((subject, i) => ({
  name: 'subject-order',
  comment: `${subject} sits below ${SUBJECTS.slice(i + 1).join(', ')}: it never imports them.`,
  severity: 'error',
  from: { path: `^server/domain/${subject}/`, pathNot: TESTS },
  to: { path: `^server/domain/(${SUBJECTS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'routes-not-to-db',
      comment: 'Routes are HTTP only: they call the domain, which owns every query (server/db/).',
      severity: 'error',
      from: { path: '^server/routes/', pathNot: TESTS },
      to: { path: '^server/db/' },
    },
    {
      name: 'mcp-not-to-db',
      comment:
        'The MCP tools are an edge like the routes: they read and audit through the domain (row types are fine).',
      severity: 'error',
      from: { path: '^server/mcp/', pathNot: TESTS },
      to: { path: '^server/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-not-to-edges',
      comment: 'Domain rules know nothing of HTTP, MCP or the CLI: those call the domain, never back.',
      severity: 'error',
      from: { path: '^server/domain/', pathNot: TESTS },
      to: { path: '^server/(routes|http|mcp|cli)/' },
    },
    {
      name: 'domain-not-to-drizzle',
      comment:
        'One data-access style: every query lives in server/db/repos/*-repo.ts (the engine runs them), never inline in the domain, the secrets or anywhere else.',
      severity: 'error',
      from: { path: '^server/', pathNot: [TESTS, '^server/db/'] },
      to: { path: '(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'db-not-upwards',
      comment:
        'Repositories and the engine sit below everything that uses them (the domain, the secrets, the edges, the composition); they never call up. Only lib/ and infra/repo-root.ts sit below them.',
      severity: 'error',
      from: { path: '^server/db/', pathNot: TESTS },
      to: { path: '^server/(domain|routes|http|mcp|cli|secrets|main|pdf|mail)/' },
    },
    {
      name: 'engine-not-to-repos',
      comment:
        'The engine (connections, migrations, locks, backups, the schema) queries no table of the product: repositories build on it.',
      severity: 'error',
      from: { path: '^server/db/engine/', pathNot: TESTS },
      to: { path: '^server/db/repos/' },
    },
    {
      name: 'composition-on-top',
      comment:
        'server/main/ builds the process from every room; nothing imports it back but for types (the Services shape). The CLI is the other entry point: with no server running it builds the same app in-process (cli/admin-direct.ts).',
      severity: 'error',
      from: { path: '^server/', pathNot: [TESTS, '^server/main/', '^server/cli/'] },
      to: { path: '^server/main/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'contracts-stand-alone',
      comment:
        'server/contracts/ declares each public shape once (zod, for OpenAPI); it builds on nothing else of the server, so every side can derive from it.',
      severity: 'error',
      from: { path: '^server/contracts/', pathNot: TESTS },
      to: { path: '^server/', pathNot: '^server/contracts/' },
    },
    {
      name: 'domain-types-from-contracts',
      comment: 'The domain reads the contracts as types only: no zod or Hono at run time in the rules.',
      severity: 'error',
      from: { path: '^server/domain/', pathNot: TESTS },
      to: { path: '^server/contracts/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lib-stands-alone',
      comment: 'server/lib/ (clock, errors, constant-time comparison) is the floor: it imports only lib.',
      severity: 'error',
      from: { path: '^server/lib/', pathNot: TESTS },
      to: { path: '^server/', pathNot: '^server/lib/' },
    },
    {
      name: 'http-not-to-mcp',
      comment: 'The HTTP plumbing serves MCP as it serves REST; MCP builds on it, not the reverse.',
      severity: 'error',
      from: { path: '^server/http/', pathNot: TESTS },
      to: { path: '^server/mcp/' },
    },
    {
      name: 'browser-not-to-server',
      comment: 'Browser bundles never carry server code; type-only imports (erased at build) are fine.',
      severity: 'error',
      from: { path: BROWSER, pathNot: TESTS },
      to: { path: '^server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'portal-not-to-widget',
      comment:
        'The portal and the widget are separate apps; what both need lives in protocol/ or calculators/.',
      severity: 'error',
      from: { path: '^portal/', pathNot: TESTS },
      to: { path: '^widget/' },
    },
    {
      name: 'shared-not-to-apps',
      comment: 'calculators/ and protocol/ are shared by every side, so they depend on none of them.',
      severity: 'error',
      from: { path: '^(calculators|protocol)/', pathNot: TESTS },
      to: { path: '^(server|portal|widget)/' },
    },
    {
      name: 'no-server-cycles',
      comment: 'A cycle makes load order matter and layers meaningless. Type-only cycles vanish at run time.',
      severity: 'error',
      from: { path: '^server/', pathNot: TESTS },
      // Allowed on purpose: a cycle closed by a lazy `await import()`. The one today is the CLI's
      // admin transport, which loads cli/admin-direct.ts (a whole app in-process) only when no
      // server is running; admin-direct imports the transport's request type and helper back.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'subject-placed',
      comment:
        'Every folder of server/domain/ is a subject with a place in SUBJECTS (above): a new one is placed before it is used.',
      severity: 'error',
      from: { path: '^server/domain/[^/]+/', pathNot: [TESTS, `^server/domain/(${SUBJECTS.join('|')})/`] },
      to: {},
    },
    ...subjectOrder,
  ],
  options: {
    includeOnly: '^(server|calculators|protocol|widget|loader|portal|sdk)/|(^|/)node_modules/drizzle-orm/',
    exclude: { path: '^server/test-support/layer-fixture/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};
