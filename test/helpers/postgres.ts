import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freeLoopbackPort } from "../../clients/transport/free-port.js";
import { migrateHub } from "../../daemon/src/hub/hub-migrate.js";
import { requirement } from "./requirement.js";
import { until } from "./until.js";

/**
 * A throwaway PostgreSQL hub for the hub's tests and benchmarks: Debian's own server binaries
 * (package postgresql, which .ci/run installs), a new cluster in a temporary directory, loopback
 * TCP with password authentication (as a hub on another machine is reached), removed on stop.
 * As root (CI), the server runs as the postgres user the package creates: PostgreSQL refuses root.
 */
export interface TestPostgres {
  port: number;
  /** The cluster's superuser, who owns the hub's schema in the tests. */
  adminUrl: string;
  /** A URL for a login role with this password, on the test database. */
  urlFor(role: string, password: string): string;
  /** Runs SQL as the superuser. */
  admin<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<T>>;
  /** Makes a login role that may use the hub (a member of memd_user, made by the hub's first migration). */
  createUser(role: string, password: string): Promise<string>;
  /**
   * kill -9 of the postmaster, as a crashed or OOM-killed server: every connection ends
   * without a word from the server. Resolves once its backends are gone too.
   */
  kill(): Promise<void>;
  /** Starts the server again on the same data and port (crash recovery runs) and waits until it accepts connections. */
  restart(): Promise<void>;
  /**
   * SIGSTOP of the server and its backends, as a hung host: connections stay open and the kernel
   * still acknowledges what is sent, but nothing answers. `resume` sends SIGCONT.
   */
  pause(): void;
  resume(): void;
  /** Drops the hub's database and makes a new hub at the same URL (its users' roles stay): another hub to every daemon. */
  replace(): Promise<void>;
  stop(): Promise<void>;
}

const ADMIN = "memd_admin";
const ADMIN_PASSWORD = "admin-secret";
const DATABASE = "memd_hub";

/** The newest installed server's bin directory, or undefined when no PostgreSQL server is installed. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], "bin");
}

/** Why the hub's tests cannot run here, or "" when they can. In CI a missing server is a failure, not a skip. */
export function postgresMissing(): string {
  return requirement(postgresBinDir() ? "" : "PostgreSQL's server is not installed (Debian: apt-get install postgresql)", ".ci/run installs Debian's postgresql package as root");
}

/**
 * Starts the server with a database made a memd hub (the hub's migrations run as its owner).
 * `durable` keeps fsync on, as a hub people use would have it; tests turn it off for speed.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL's server is not installed (apt-get install postgresql)");
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-pg-"));
  const data = path.join(dir, "data");
  const pwfile = path.join(dir, "pw");
  fs.writeFileSync(pwfile, ADMIN_PASSWORD);
  if (asRoot) spawnSync("chown", ["-R", "postgres:postgres", dir]);
  const run = (command: string, args: string[]): [string, string[]] => (asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args]);
  const [initCmd, initArgs] = run(path.join(bin, "initdb"), [
    "-D", data, "-U", ADMIN, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8",
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freeLoopbackPort();
  // The tests' kill -9 of this server happens with its WAL intact (fsync=off only matters if the
  // whole machine stops), so its own durability can go.
  const durability = options.durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];
  const [serverCmd, serverArgs] = run(path.join(bin, "postgres"), [
    "-D", data, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${dir}`,
    "-c", "max_connections=200", "-c", "shared_buffers=128MB", ...durability,
  ]);
  const adminUrl = (db: string) => `postgres://${ADMIN}:${ADMIN_PASSWORD}@127.0.0.1:${port}/${db}`;
  let server = await launch(serverCmd, serverArgs, adminUrl("postgres"));
  const adminPool = new pg.Pool({ connectionString: adminUrl(DATABASE), max: 2 });
  // A server the test killed ends the pool's idle connections; the next query opens new ones.
  adminPool.on("error", () => undefined);
  const makeHub = async () => {
    const pool = new pg.Pool({ connectionString: adminUrl("postgres"), max: 1 });
    await pool.query(`CREATE DATABASE ${DATABASE}`);
    await pool.end();
    const owner = new pg.Client({ connectionString: adminUrl(DATABASE) });
    await owner.connect();
    try {
      await migrateHub(owner, "the tests' hub");
    } finally {
      await owner.end();
    }
  };
  await makeHub();
  return {
    port,
    adminUrl: adminUrl(DATABASE),
    urlFor: (role, password) => `postgres://${encodeURIComponent(role)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    admin: (text, values) => adminPool.query(text, values),
    async createUser(role, password) {
      const client = await adminPool.connect();
      try {
        await client.query(`CREATE ROLE ${client.escapeIdentifier(role)} LOGIN PASSWORD ${client.escapeLiteral(password)} IN ROLE memd_user`);
      } finally {
        client.release();
      }
      return `postgres://${encodeURIComponent(role)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
    },
    async kill() {
      const [postmaster, ...backends] = serverProcesses(data);
      process.kill(postmaster as number, "SIGKILL");
      await server.exited;
      // Its backends notice the postmaster's death and exit; a new postmaster refuses to start while one lives.
      const gone = await until(() => backends.every((pid) => !fs.existsSync(`/proc/${pid}`)), (done) => done, 30_000);
      if (!gone) throw new Error("the killed PostgreSQL's backends did not exit within 30 s");
    },
    async restart() {
      server = await launch(serverCmd, serverArgs, adminUrl("postgres"));
    },
    pause() {
      for (const pid of serverProcesses(data)) process.kill(pid, "SIGSTOP");
    },
    resume() {
      for (const pid of serverProcesses(data)) process.kill(pid, "SIGCONT");
      // runuser stops itself when its child stops, and stays stopped: a later stop() would wait on it forever.
      process.kill(-server.group, "SIGCONT");
    },
    async replace() {
      const pool = new pg.Pool({ connectionString: adminUrl("postgres"), max: 1 });
      pool.on("error", () => undefined);
      await pool.query(`DROP DATABASE ${DATABASE} WITH (FORCE)`);
      await pool.end();
      await makeHub();
    },
    async stop() {
      await adminPool.end().catch(() => undefined);
      if (server.process.exitCode === null) {
        try {
          process.kill(-server.group, "SIGQUIT");
        } catch {
          // Already gone.
        }
        await server.exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface RunningServer {
  process: ChildProcess;
  /** Its process group: the postmaster, and runuser above it as root (each backend is a session of its own). */
  group: number;
  exited: Promise<unknown>;
}

/** Starts the server (in a process group of its own) and waits until it accepts connections. */
async function launch(command: string, args: string[], adminUrl: string): Promise<RunningServer> {
  const server: ChildProcess = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], detached: true });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  let log = "";
  server.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  });
  const ready = await until(async () => {
    if (server.exitCode !== null) throw new Error(`postgres exited: ${log}`);
    const client = new pg.Client({ connectionString: adminUrl });
    client.on("error", () => undefined);
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }, (up) => up, 30_000);
  if (!ready) throw new Error(`postgres did not accept connections within 30 s: ${log}`);
  return { process: server, group: server.pid as number, exited };
}

/**
 * The postmaster, then its children (backends and auxiliary processes), from /proc: each child
 * makes itself a session of its own (setsid), so a signal to the server's process group misses them.
 */
function serverProcesses(data: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      // The parent's pid is the 2nd field after the command's closing parenthesis.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
    } catch {
      return false;
    }
  });
  return [postmaster, ...children.map(Number)];
}
