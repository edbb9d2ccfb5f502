import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const daemons: TestDaemon[] = [];
afterAll(async () => {
  for (const daemon of daemons) await removeDaemon(daemon);
});

describe("memctl reindex --target keyword", () => {
  it("derives entity links, content hash and the search copies again after a change made outside the daemon", async () => {
    const daemon = await spawnDaemon();
    daemons.push(daemon);
    const { memory } = await daemon.clients.memory.save({ content: "The refund worker retries PAY-1423 twice", project: "billing" });
    const id = memory?.id ?? "";
    const search = async (query: string) => {
      const { results } = await daemon.clients.memory.search({ query, project: "billing", mode: SearchMode.HYBRID, explain: true });
      return results.map((result) => ({ id: result.memory?.id, graphPath: result.explanation?.graphPath }));
    };
    // Searched once, the daemon's copies hold the memory as saved.
    expect((await search("PAY-1423")).map((result) => result.id)).toEqual([id]);
    // Another whose change names no entity: only reloading the copies can show it.
    const plain = (await daemon.clients.memory.save({ content: "the digest email goes out weekly", project: "billing" })).memory?.id ?? "";
    expect((await search("digest weekly")).map((result) => result.id)).toEqual([plain]);
    const changed = "Nightly backfill fails with ORA-01555 snapshot too old";
    // The sqlite3 shell, say: FTS5's own triggers follow the change, nothing the daemon derives does.
    const shell = new Database(path.join(daemon.home, "memd.db"));
    shell.prepare("UPDATE memories SET content = ? WHERE id = ?").run(changed, id);
    shell.prepare("UPDATE memories SET content = ? WHERE id = ?").run("the digest email goes out hourly", plain);
    shell.close();
    expect(await search("ORA-01555")).toEqual([]);
    expect(await search("hourly")).toEqual([]);

    const reindex = await runCli(daemon.home, ["reindex", "--target", "keyword"]);
    expect(reindex.code, reindex.stderr).toBe(0);
    // Said once, when the index is rebuilt, not also when the relinking reaches the total.
    expect(reindex.stdout.match(/keyword: rebuilt 2 memories/g)).toHaveLength(1);
    expect((await search("hourly")).map((result) => result.id)).toEqual([plain]);
    const [found] = await search("ORA-01555");
    expect(found?.id).toBe(id);
    // Reached through the entity the new text names, not only through its words.
    expect(found?.graphPath).toMatch(/ora-01555/i);
    // The same text saved again is known as a repeat: the content hash followed the change.
    const again = await daemon.clients.memory.save({ content: changed, project: "billing" });
    expect(again.mergedInto).toBe(id);
  }, 60_000);
});
