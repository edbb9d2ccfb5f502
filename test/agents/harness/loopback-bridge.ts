import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { relay } from "../../helpers/tcp-proxy.js";

/** Unix sockets in `dir`, one per port, each relaying to that port on 127.0.0.1 (see netns-entry.mjs). */
export interface LoopbackBridge {
  dir: string;
  ports: readonly number[];
  close(): Promise<void>;
}

/** Opens `<dir>/<port>.sock` for each port: the way in from an agent's network namespace to this one's loopback. */
export async function openLoopbackBridge(dir: string, ports: readonly number[]): Promise<LoopbackBridge> {
  fs.mkdirSync(dir, { recursive: true });
  const sockets = new Set<net.Socket>();
  const servers = await Promise.all(
    ports.map(async (port) => {
      const server = net.createServer((inside) => relay(inside, net.connect(port, "127.0.0.1"), sockets));
      const file = path.join(dir, `${port}.sock`);
      fs.rmSync(file, { force: true });
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(file, resolve);
      });
      return server;
    }),
  );
  return {
    dir,
    ports,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
