import { createServer, type Socket } from 'node:net';

/**
 * A TCP server on 127.0.0.1:0 that accepts every connection and never says a word: a webhook
 * receiver or an SMTP server that hangs. `open()` counts the connections it still holds.
 */
export async function startSilentServer() {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    /** Connections accepted and still open. */
    open: () => sockets.size,
    accepted: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
