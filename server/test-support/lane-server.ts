import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { withLane } from '../http/requests/node-front.ts';
import type { ApiApp } from '../main/app.ts';

/** An API app served over a socket as `servers.ts` serves it: the node adapter's listener behind the app's lane. */
export interface LaneServer {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests the lane gave to Hono so far. */
  handedOver(): number;
  /** While true, answers say `Connection: close` (the drain). */
  setClosing(closing: boolean): void;
  close(): Promise<void>;
}

export async function serveBehindLane(app: ApiApp): Promise<LaneServer> {
  const listener = getRequestListener(app.fetch);
  let handed = 0;
  let closing = false;
  const server = createServer(
    withLane(
      (req, res) => {
        handed++;
        return listener(req, res);
      },
      () => app.lane,
      () => closing,
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handedOver: () => handed,
    setClosing: (value) => {
      closing = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
