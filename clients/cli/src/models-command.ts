import type { Command } from "commander";
import { action } from "./context.js";
import { progressBar } from "./reindex-command.js";

export function registerModelsCommand(program: Command): void {
  const models = program
    .command("models")
    .description("the ONNX embedding models memd can download and run; memd downloads one only when you pull it")
    .action(
      action(async (ctx) => {
        const { models: known, activeSpace } = await ctx.clients.models.listModels({});
        if (ctx.json) {
          ctx.printJson({ activeSpace, models: known.map((m) => ({ name: m.name, repository: m.repository, revision: m.revision, dimensions: m.dimensions, installed: m.installed, path: m.path, summary: m.summary })) });
          return;
        }
        ctx.print(`embedder now: ${activeSpace || "none (embeddings are off)"}`);
        for (const m of known) ctx.print(`${m.installed ? "installed" : "available"}  ${m.name.padEnd(20)} ${m.summary}${m.installed ? `\n           ${m.path}` : ""}`);
        if (!known.some((m) => m.installed)) ctx.print(`\nmemctl models pull ${known[0]?.name ?? "NAME"} downloads one from the Hugging Face hub`);
      }),
    );
  models
    .command("pull <name>")
    .description("download a model from the Hugging Face hub (MEMD_HF_ENDPOINT) into MEMD_HOME/models, every file checked against its pinned SHA-256; run it again to resume")
    .action(
      action(async (ctx, name: string) => {
        const tty = process.stderr.isTTY === true && !ctx.json;
        let path = "";
        for await (const p of ctx.clients.models.pullModel({ name })) {
          path = p.path;
          const [done, total] = [Number(p.doneBytes), Number(p.totalBytes)];
          if (ctx.json) ctx.print(JSON.stringify({ file: p.file, doneBytes: done, totalBytes: total, resumedBytes: Number(p.resumedBytes), done: p.done, path: p.path }));
          else if (tty) process.stderr.write(`\r${progressBar(name, Math.round(done / 1e6), Math.round(Math.max(done, total) / 1e6), "")} MB`);
        }
        if (tty) process.stderr.write("\n");
        if (!ctx.json) {
          ctx.print(`${name} is installed in ${path}`);
          ctx.print("memd runs it from its next start (memctl stop, then memctl start) when MEMD_EMBEDDER is auto (the default) and no Ollama model answers, or onnx;");
          ctx.print("it then re-embeds every memory in the background while the current vectors keep serving.");
        }
      }),
    );
}
