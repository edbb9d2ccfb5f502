// Assembles vector-kernels.wat into vector-kernels-wasm.ts (npm run generate:kernels); the
// kernels test checks that the committed module is what the source assembles to.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import wabt from "wabt";

const SOURCE = fileURLToPath(new URL("./vector-kernels.wat", import.meta.url));
const TARGET = fileURLToPath(new URL("./vector-kernels-wasm.ts", import.meta.url));

/** The module's bytes, assembled from WebAssembly text. */
export async function assembleKernels() {
  const tools = await wabt();
  const parsed = tools.parseWat("vector-kernels.wat", await readFile(SOURCE, "utf8"), { simd: true });
  try {
    parsed.validate();
    return Uint8Array.from(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}

/** The TypeScript module that carries the bytes. */
export function kernelsModuleText(bytes) {
  return [
    "// Generated from vector-kernels.wat by generate-kernels.mjs (npm run generate:kernels). Do not edit.",
    `export const VECTOR_KERNELS_WASM = Buffer.from("${Buffer.from(bytes).toString("base64")}", "base64");`,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(TARGET, kernelsModuleText(await assembleKernels()));
}
