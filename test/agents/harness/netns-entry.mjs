// Runs inside a network namespace of its own (unshare -n, loopback only): listens on each
// given 127.0.0.1 port and relays every connection to <bridge>/<port>.sock, which the test
// process relays on to the same port outside. Then it runs the agent and exits as it did.
// The agent can thus reach the scripted model and memd's loopback listener, and nothing else.
// Usage: node netns-entry.mjs BRIDGE_DIR PORT[,PORT...] -- COMMAND [ARG...]
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const [bridge, portList, separator, command, ...args] = process.argv.slice(2);
if (bridge === undefined || portList === undefined || separator !== "--" || command === undefined) {
  process.stderr.write("usage: netns-entry.mjs BRIDGE_DIR PORT[,PORT...] -- COMMAND [ARG...]\n");
  process.exit(2);
}

const ports = portList.split(",").filter((port) => port !== "").map(Number);
await Promise.all(
  ports.map(
    (port) =>
      new Promise((resolve, reject) => {
        const server = net.createServer((client) => {
          const upstream = net.connect(path.join(bridge, `${port}.sock`));
          for (const socket of [client, upstream]) socket.on("error", () => undefined);
          client.pipe(upstream);
          upstream.pipe(client);
          client.on("close", () => upstream.destroy());
          upstream.on("close", () => client.destroy());
        });
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
          server.unref();
          resolve();
        });
      }),
  ),
);

const child = spawn(command, args, { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.once("error", (error) => {
  process.stderr.write(`netns-entry: cannot run ${command}: ${error.message}\n`);
  process.exit(127);
});
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
