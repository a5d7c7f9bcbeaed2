import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/** The lock: a Unix socket the owner listens on. */
const LOCK = 'svc.lock';
// Held (also a listening socket) only while a stale lock is removed, so two starters cannot both
// remove it and each bind their own.
const TAKEOVER = 'svc.lock.takeover';
/** A socket is bound and listening under `<name>.<hex digits>` before it is linked to its name. */
const STAGING_HEX_DIGITS = 12;
const STAGING_SUFFIX_BYTES = '.'.length + STAGING_HEX_DIGITS;
const STAGING_NAME = new RegExp(`^svc\\.lock(\\.takeover)?\\.[0-9a-f]{${STAGING_HEX_DIGITS}}$`);
/** A socket address holds at most 107 bytes of path (108 with its NUL) on Linux. */
const SUN_PATH_MAX = 107;
/** How long a connect or the owner's pid may take before the owner counts as live anyway. */
const PROBE_TIMEOUT_MS = 1_500;
const ATTEMPTS = 40;

export interface DataDirLock {
  release(): void;
}

/**
 * PGlite may be opened by one process only; a second one would corrupt it. The lock is a Unix
 * socket bound in the data directory that its owner listens on: the kernel closes it when the
 * owner dies, however it dies (kill -9, out of memory, a container stopped), so a restart finds it
 * refusing connections and takes it over at once. A connect that succeeds means a live owner, which
 * no pid can tell across PID namespaces (two containers sharing a volume are both pid 1).
 *
 * The socket's path must fit a socket address (107 bytes). A longer DATA_DIR is reached through
 * this process's own descriptor of the directory (`/proc/self/fd/N/svc.lock`), which names the
 * same file; without /proc such a DATA_DIR is refused with a message saying so.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const dir = openDirectory(dataDir);
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const held = await listenOn(dir, LOCK);
      if (held) return lockHandle(held, dir);
      const owner = await probe(dir, LOCK);
      if (owner.state === 'live') throw inUse(dataDir, owner.pid);
      if (owner.state === 'stale') await removeStale(dir, owner.identity);
      // 'gone': released in between; try again at once.
    }
  } catch (error) {
    dir.close();
    throw error;
  }
  dir.close();
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}; another process is starting.`);
}

function lockHandle(held: Held, dir: Directory): DataDirLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // While the directory's descriptor, which a long path goes through, is still open.
      held.close();
      dir.close();
    },
  };
}

/**
 * Removes a lock that refused connections, under the takeover guard, and only if it is still the
 * same file: one that a faster starter bound meanwhile is left alone.
 */
async function removeStale(dir: Directory, staleIdentity: string): Promise<void> {
  const guard = await listenOn(dir, TAKEOVER);
  if (!guard) {
    const holder = await probe(dir, TAKEOVER);
    // Another starter is taking over: once it is done, the next attempt finds it live.
    if (holder.state === 'live') return sleep(25);
    // Left by a process that died while taking over.
    if (holder.state === 'stale') unlinkIfSame(dir.file(TAKEOVER), holder.identity);
    return;
  }
  try {
    const lock = await probe(dir, LOCK);
    if (lock.state === 'stale' && lock.identity === staleIdentity)
      unlinkIfSame(dir.file(LOCK), staleIdentity);
  } finally {
    guard.close();
  }
}

type Probe = { state: 'live'; pid?: number } | { state: 'stale'; identity: string } | { state: 'gone' };

/**
 * Who holds `name`: a connect that succeeds is a live owner (it answers with its pid); one refused
 * is a file left by a dead process (or not a socket at all: an older svc's pid file). Anything
 * unexpected, such as a full backlog or an owner too busy to answer, counts as live.
 */
async function probe(dir: Directory, name: string): Promise<Probe> {
  let identity: string;
  try {
    identity = identityOf(dir.file(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'gone' };
    throw error;
  }
  return new Promise((resolvePromise) => {
    const socket = connect(dir.address(name));
    let answer = '';
    let connected = false;
    const finish = (result: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolvePromise(result);
    };
    const live = (): Probe => {
      const pid = Number(answer);
      return Number.isInteger(pid) && pid > 0 ? { state: 'live', pid } : { state: 'live' };
    };
    const timer = setTimeout(() => finish(live()), PROBE_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
    });
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => finish(live()));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return finish(live());
      if (error.code === 'ECONNREFUSED') return finish({ state: 'stale', identity });
      if (error.code === 'ENOENT') return finish({ state: 'gone' });
      finish(live());
    });
  });
}

/** A socket listening under a name in the directory; `close` stops it and removes the name. */
interface Held {
  close(): void;
}

/**
 * A socket listening under `name`, or undefined when a file is already there. The name never
 * shows a socket that is bound but not yet listening: one that did, for the instant between
 * bind() and listen() (longer when a garbage collection or the scheduler paused its process
 * there), refused connections like a dead owner's, and a starter probing it then removed a live
 * lock and took one of its own (seen with four processes starting together on a loaded machine).
 * So the socket is bound and listening under a name of its own first, then hard-linked to `name`,
 * which fails if `name` exists: the lock appears atomically, already answering.
 */
async function listenOn(dir: Directory, name: string): Promise<Held | undefined> {
  const staging = `${name}.${randomBytes(STAGING_HEX_DIGITS / 2).toString('hex')}`;
  const server = await listenAt(dir.address(staging));
  if (!server) return undefined; // a staging name taken: as good as losing the race
  let identity: string;
  try {
    identity = identityOf(dir.file(staging));
    linkSync(dir.file(staging), dir.file(name));
  } catch (error) {
    server.close();
    // EEXIST: the name is taken; ENOENT: a holder cleared our staging name as left over.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') return undefined;
    throw error;
  } finally {
    rmSync(dir.file(staging), { force: true });
  }
  if (name === LOCK) removeLeftStagingNames(dir);
  return {
    close() {
      // The name goes before the socket stops listening (libuv orders its own unlink so too): a
      // name that refuses connections while its owner is releasing it would look dead to a
      // contender, and be removed by it after a new owner had linked a live lock there.
      unlinkIfSame(dir.file(name), identity);
      server.close();
    },
  };
}

/**
 * A file's identity: its inode and its birth time. The inode alone is not enough, since a file
 * system gives a freed inode number to the next file made (ext4 does at once), so a new live lock
 * could pass for the dead one a contender saw.
 */
function identityOf(file: string): string {
  const stat = lstatSync(file, { bigint: true });
  return `${stat.ino}:${stat.birthtimeNs}`;
}

/**
 * Staging names of processes that died between binding and linking (or unlinking): the lock's
 * new holder removes those older than a minute, so they do not pile up in the data directory.
 */
function removeLeftStagingNames(dir: Directory): void {
  for (const entry of readdirSync(dir.file('.'))) {
    if (!STAGING_NAME.test(entry)) continue;
    try {
      if (Date.now() - lstatSync(dir.file(entry)).mtimeMs > 60_000) rmSync(dir.file(entry), { force: true });
    } catch {
      // Gone meanwhile: what was wanted.
    }
  }
}

/** A listening socket at `address`, or undefined when a file is already there. */
function listenAt(address: string): Promise<Server | undefined> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer((connection) => {
      connection.on('error', () => {});
      connection.end(String(process.pid));
    });
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolvePromise(undefined);
      else reject(error);
    });
    server.listen(address, () => {
      // The lock never keeps a process alive by itself (a CLI command ends when its work does).
      server.unref();
      resolvePromise(server);
    });
  });
}

function unlinkIfSame(file: string, identity: string): void {
  try {
    if (identityOf(file) === identity) unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

interface Directory {
  /** Where a socket named `name` in the directory is bound or connected to (fits sun_path). */
  address(name: string): string;
  /** The file's ordinary path, for stat and unlink. */
  file(name: string): string;
  close(): void;
}

function openDirectory(dataDir: string): Directory {
  const absolute = resolve(dataDir);
  const file = (name: string) => join(absolute, name);
  if (Buffer.byteLength(file(TAKEOVER)) + STAGING_SUFFIX_BYTES <= SUN_PATH_MAX)
    return { address: file, file, close() {} };
  if (!existsSync('/proc/self/fd')) {
    throw new Error(
      `The data directory path ${absolute} is too long to hold svc's lock socket ` +
        `(at most ${SUN_PATH_MAX - TAKEOVER.length - 1 - STAGING_SUFFIX_BYTES} bytes without /proc): choose a shorter DATA_DIR.`,
    );
  }
  const fd = openSync(absolute, 'r');
  let closed = false;
  return {
    address: (name) => `/proc/self/fd/${fd}/${name}`,
    file,
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}

function inUse(dataDir: string, pid: number | undefined): DataDirInUseError {
  const who = pid === undefined ? 'another running process' : `process ${pid}`;
  return new DataDirInUseError(
    `The data directory ${dataDir} is in use by ${who} (a running svc server?). ` +
      'The CLI talks to a running server through its admin API; stop the other process to open the database directly.',
  );
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
