import fs from "node:fs";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StringListSchema } from "../../gen/memd/v1/memory_service_pb.js";
import { SECRET_SAMPLES } from "../../daemon/src/redact/secret-corpus.js";
import { runCli, spawnDaemon } from "../helpers/daemon.js";
import { expectNoSecrets, fileHaystacks, textHaystack } from "../helpers/secret-haystack.js";

describe("secret redaction on every path", () => {
  it("keeps every secret of the corpus out of the database, its WAL, the logs and an export", async () => {
    const secrets = SECRET_SAMPLES.flatMap((sample) => sample.secrets.map((s) => s.value));
    expect(new Set(secrets).size).toBeGreaterThanOrEqual(30);
    const d = await spawnDaemon({ env: { MEMD_LOG_LEVEL: "debug" } });
    try {
      let n = 0;
      for (const sample of SECRET_SAMPLES) {
        n += 1;
        const saved = await d.clients.memory.save({ content: `note ${n}: ${sample.text}`, project: "secrets", concepts: [`c${n}`] });
        const id = saved.memory?.id ?? "";
        expect(saved.memory?.content).toContain("[REDACTED:");
        switch (n % 5) {
          case 0:
            await d.clients.memory.update({ id, content: `updated ${n}: ${sample.text}`, tags: create(StringListSchema, { values: [`t${n}`] }) });
            break;
          case 1:
            await d.clients.memory.checkpoint({ summary: `checkpoint ${n}`, problem: sample.text, solution: sample.text, project: "secrets" });
            break;
          case 2:
            await d.clients.memory.supersede({ id, content: `corrected ${n}: ${sample.text}`, reason: sample.text });
            break;
          case 3:
            await d.clients.memory.archive({ id, reason: sample.text });
            break;
          default:
            await d.clients.admin.import({
              memories: [{ id: `01HZ${String(n).padStart(22, "0")}`, content: `imported ${n}: ${sample.text}`, importance: 3, project: "secrets", createTime: timestampFromMs(Date.now()) }],
            });
        }
        // A rejected request echoes a value in its error message, and the log records it.
        await d.clients.memory.save({ content: "x", project: "secrets", concepts: [`${sample.text.slice(0, 400)}${"y".repeat(600)}`] }).catch(() => undefined);
      }
      const exported = await runCli(d.home, ["export"]);
      expect(exported.code).toBe(0);
      expect(exported.stdout.split("\n").filter(Boolean).length).toBeGreaterThan(SECRET_SAMPLES.length);
      expect(await d.stop()).toBe(0);

      expectNoSecrets([...fileHaystacks(d.home), textHaystack("export", exported.stdout)], secrets);
    } finally {
      if (d.process.exitCode === null) await d.kill();
      fs.rmSync(d.home, { recursive: true, force: true });
    }
  });
});
