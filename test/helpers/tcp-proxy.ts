import net from "node:net";

/**
 * A loopback TCP relay in front of a server, for cutting one client's network path and no
 * other's: `cut` drops every relayed connection and refuses new ones (a hub outage as this
 * machine sees it), `restore` lets them through again.
 */
export interface TcpProxy {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Pipes two sockets into each other until either closes; both are kept in `sockets` while open. */
export function relay(client: net.Socket, upstream: net.Socket, sockets: Set<net.Socket>): void {
  for (const socket of [client, upstream]) {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  }
  client.pipe(upstream);
  upstream.pipe(client);
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let open = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    relay(client, net.connect(targetPort, "127.0.0.1"), sockets);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
