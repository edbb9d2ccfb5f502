import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { REPO_ROOT } from "./daemon.js";

/** A session OpenCode 1.18.33 wrote against a scripted model: its tables' schema and rows (see test/capture/fixtures/README.md). */
export interface OpenCodeSessionFixture {
  schema: string[];
  session: Record<string, unknown>[];
  message: Record<string, unknown>[];
  part: Record<string, unknown>[];
}

export const OPENCODE_SESSION = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test/capture/fixtures/opencode-session.json"), "utf8")) as OpenCodeSessionFixture;
export const OPENCODE_SESSION_ID = OPENCODE_SESSION.session[0]?.id as string;

/**
 * Writes `file` as OpenCode's database holding the fixture session's rows and `extra` ones,
 * in WAL mode as OpenCode keeps it.
 */
export function writeOpenCodeDatabase(file: string, extra: Partial<OpenCodeSessionFixture> = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    // The session's project row is not part of the fixture.
    db.pragma("foreign_keys = OFF");
    for (const statement of OPENCODE_SESSION.schema) db.exec(statement);
    for (const table of ["session", "message", "part"] as const) {
      for (const row of [...OPENCODE_SESSION[table], ...(extra[table] ?? [])]) {
        const columns = Object.keys(row);
        db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(...columns.map((c) => row[c]));
      }
    }
  } finally {
    db.close();
  }
}
