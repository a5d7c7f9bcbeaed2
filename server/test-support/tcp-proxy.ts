import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `host:port` of the proxy, to put in a URL in place of the real server's. */
  address: string;
  port: number;
  /** Closes every connection and stops listening: the server looks gone (connections refused). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy to `host:port` that a test can cut and restore, as a failover, a restart
 * or a network partition would: the server under test talks to the dependency through it.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server?.listening) return resolve();
      server.close(() => resolve());
    });
  await listen();
  return {
    get address() {
      return `127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    cut,
    restore: listen,
    close: cut,
  };
}
