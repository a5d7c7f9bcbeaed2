/**
 * The floor of a measured path (`npm run bench -- http`, docs/benchmarks.md "Floor rows"): a
 * minimal `node:http` server doing only the work no implementation of that path can skip, so its
 * req/s is the most any implementation could reach on this machine with the same load generator.
 * It imports nothing from the service: the shapes (body sizes, claims) are copied from a real
 * answer, and the bench passes in the rate limiter's script and the security headers.
 *
 * FLOOR_PATH: `status` (GET /v1/api/licenses/status) or `activate` (POST /v1/api/license/activate).
 * REDIS_URL: counts in Redis (one round trip per request, under FLOOR_KEY_PREFIX), as the server
 * with PostgreSQL + Redis; without it in memory, as the embedded server.
 */
const http = require('node:http');
const crypto = require('node:crypto');
const pino = require('pino');

const PATH = process.env.FLOOR_PATH;
if (PATH !== 'status' && PATH !== 'activate') throw new Error(`FLOOR_PATH must be status or activate`);
const PREFIX = process.env.FLOOR_KEY_PREFIX ?? `svc-floor-${crypto.randomBytes(6).toString('hex')}:`;
const LIMIT = 120_000;
const WINDOW_SECONDS = 60;

// The server's logger: JSON lines to standard output, asynchronous, at most 4,096 bytes a write,
// the time stamp made once per millisecond.
let stampedMs = Number.NaN;
let stamp = '';
const isoTime = () => {
  const now = Date.now();
  if (now !== stampedMs) {
    stampedMs = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
};
const log = pino(
  { base: { service: 'svc' }, timestamp: isoTime },
  pino.destination({ fd: 1, sync: false, maxWrite: 4096 }),
);

/**
 * The rate limiter's round trip, the server's own script (server/http/rate-limit/counters.ts
 * `HIT_SCRIPT`, passed in by the bench): a fixed window per key (SET NX EX, INCR, PTTL), further
 * windows counting the same event, then plain reads (the caches' epoch).
 */
const HIT = process.env.FLOOR_HIT_SCRIPT;
if (!HIT) throw new Error('FLOOR_HIT_SCRIPT must hold the rate limiter script');

let redis;
if (process.env.REDIS_URL) {
  const Redis = require('ioredis');
  redis = new Redis(process.env.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
  });
  redis.defineCommand('svcHit', { lua: HIT });
}

/** The embedded server's counters: a fixed window per key in this process. */
const windows = new Map();
function countInMemory(key, now) {
  let w = windows.get(key);
  if (!w || w.resetAt <= now) {
    w = { count: 0, resetAt: now + WINDOW_SECONDS * 1000 };
    windows.set(key, w);
  }
  w.count += 1;
  return w;
}

/** Counts `key` (and `alsoKey`'s window) once; resolves to [count, ms to reset]. */
async function hit(key, alsoKey) {
  const now = Date.now();
  if (redis) {
    const keys = alsoKey ? [PREFIX + key, PREFIX + alsoKey] : [PREFIX + key];
    const args = alsoKey ? [WINDOW_SECONDS, 1, WINDOW_SECONDS] : [WINDOW_SECONDS, 0];
    const r = await redis.svcHit(keys.length + 1, ...keys, `${PREFIX}cache:epoch`, ...args);
    return [r[0], r[1]];
  }
  const w = countInMemory(key, now);
  if (alsoKey) countInMemory(alsoKey, now);
  return [w.count, w.resetAt - now];
}

/** The server's security headers (server/http/headers/security-headers.ts, passed in by the bench). */
const SECURITY_HEADERS = JSON.parse(process.env.FLOOR_SECURITY_HEADERS ?? 'null');
if (!SECURITY_HEADERS) throw new Error('FLOOR_SECURITY_HEADERS must hold the security headers');
const EXPOSE =
  'X-Request-Id,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,RateLimit,RateLimit-Policy,Retry-After,WWW-Authenticate';

/** The real server's header set: security, content, request id, rate limit, CORS. */
function answer(res, started, method, path, body, counted, extra) {
  const id = crypto.randomUUID();
  const remaining = Math.max(0, LIMIT - counted[0]);
  const resetSeconds = Math.max(0, Math.ceil(counted[1] / 1000));
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    ...extra,
    'X-Request-Id': id,
    'X-RateLimit-Limit': String(LIMIT),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + counted[1]) / 1000)),
    'X-RateLimit-Resource': 'default',
    'RateLimit-Policy': `"default";q=${LIMIT};w=${WINDOW_SECONDS}`,
    RateLimit: `"default";r=${remaining};t=${resetSeconds}`,
    Vary: 'Origin',
    'Access-Control-Expose-Headers': EXPOSE,
  });
  res.end(body);
  const durationMs = Math.round((performance.now() - started) * 100) / 100;
  log.info({ requestId: id, method, path, status: 200, durationMs }, 'request');
}

/** GET /licenses/status: a status as large as the real one (384 bytes), its field names. */
async function status(req, res, started) {
  const auth = req.headers.authorization ?? '';
  const counted = await hit(`rl:default:license:${auth.slice(-26)}`);
  const body = JSON.stringify({
    status: 'active',
    plan: 'agency',
    seats: 200,
    seatsUsed: 1,
    allowedDomains: ['bench-0.example.com', '*.bench-0.example.com'],
    expiresAt: '2099-01-01T00:00:00.000Z',
    graceEndsAt: '2099-01-08T00:00:00.000Z',
    overSeat: false,
    next: 'Paid through 2099-01-01; unless renewed, grace ends 2099-01-08 and widgets stop then.',
    publishableKey: 'svc_pk_2W4vBJ12U1s1TmomZ5WoxXBND95PFblqF1OVTkE',
  });
  answer(res, started, 'GET', '/v1/api/licenses/status', body, counted, {});
}

const { privateKey } = crypto.generateKeyPairSync('ed25519');
const KID = `k_${crypto.randomBytes(8).toString('hex')}`;
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'embed+jwt', kid: KID })).toString(
  'base64url',
);
const ISSUER = 'http://127.0.0.1:40000';
const CONSENT = {
  versionId: 'cv_m4hffrmqcpe3tets3qpbx5gdeg',
  text: 'I agree that Bench & Partners LLP may contact me by e-mail or by phone about my enquiry, and may keep the details I entered for that purpose.',
  sha256: '5a6cf4cf330269c5a39ae58cb857c944fcc084df846b6375de27f16c2170683c',
  language: 'en',
  byLanguage: {
    es: {
      versionId: 'cv_weczja09d8vz5e84rgbv55r0ac',
      text: 'Autorizo a Bench & Partners LLP a comunicarse conmigo por correo electrónico o por teléfono sobre mi consulta y a conservar los datos que ingresé con ese fin.',
      sha256: '0f8a1dc6796a3b66f4044388f428ab06048692ac6d73da23e8eb7930539c78f0',
      language: 'es',
    },
  },
};

/**
 * POST /license/activate: the body read and parsed, the session counted toward the caller's rate
 * limit and the license's sessions in one round trip, an Ed25519 JWT with the real token's 11
 * claims signed, an answer of the real one's shape and size (about 1,460 bytes).
 */
function activate(req, res, started) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const origin = req.headers.origin ?? '';
    const license = String(input.licenseKey).slice(-26);
    const counted = await hit(
      `rl:default:ip:${req.socket.remoteAddress}`,
      `count:sessions:${WINDOW_SECONDS}:${license}`,
    );
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      acc: 'acct_k0yww48sabkd4gn5c038znzsv4',
      dom: origin.replace(/^https?:\/\//, ''),
      org: origin,
      sid: `sid_${crypto.randomBytes(13).toString('hex').slice(0, 26)}`,
      iss: ISSUER,
      aud: 'svc-embed',
      sub: `lic_${license}`,
      jti: crypto.randomUUID(),
      iat: now,
      nbf: now,
      exp: now + 600,
    };
    const signed = `${JWT_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = crypto.sign(null, Buffer.from(signed), privateKey).toString('base64url');
    const body = JSON.stringify({
      token: `${signed}.${signature}`,
      expiresAt: new Date((now + 600) * 1000).toISOString(),
      embedUrl: 'http://127.0.0.1:40001',
      calculators: ['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'],
      test: false,
      firm: { name: 'Bench & Partners LLP' },
      consent: CONSENT,
    });
    answer(res, started, 'POST', '/v1/api/license/activate', body, counted, {
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': origin,
    });
  });
}

const handler = PATH === 'status' ? status : activate;
const server = http.createServer((req, res) => {
  handler(req, res, performance.now());
});

async function main() {
  if (redis) await new Promise((resolve, reject) => redis.once('ready', resolve).once('error', reject));
  server.listen(0, '127.0.0.1', () => {
    console.log(`listening http://127.0.0.1:${server.address().port}`);
  });
}
main();
process.on('SIGTERM', () => {
  server.close();
  redis?.disconnect();
  log.flush();
  process.exit(0);
});
