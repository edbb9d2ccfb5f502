import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { KnownModel } from "./known-models.js";

/** Where a pulled model's record lives in its directory: written last, so a directory without it is incomplete. */
export const INSTALLED_MARKER = "memd-model.json";
export const DEFAULT_HUB = "https://huggingface.co";

export interface PullProgress {
  /** The file being fetched, by its path in the repository. */
  file: string;
  /** Bytes in hand of all the model's files, and in all (unknown sizes count once they are known). */
  doneBytes: number;
  totalBytes: number;
  /** Bytes this pull found already on disk and kept (a resumed download, files already verified). */
  resumedBytes: number;
}

export class ModelPullError extends Error {
  override readonly name = "ModelPullError";
  constructor(
    message: string,
    /** False when trying again cannot help: a file on the hub that does not match its pinned digest. */
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface PullOptions {
  /** MEMD_HOME/models: the model goes into a directory of its name there. */
  modelsDir: string;
  /** The hub's address; files are read from <hub>/<repository>/resolve/<revision>/<path>. */
  hub: string;
  progress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
}

/** The directory a known model is (or would be) installed in. */
export function modelDir(modelsDir: string, model: KnownModel): string {
  return path.join(modelsDir, model.name);
}

/** Whether the model is installed: every file verified and its record written. */
export function isInstalled(modelsDir: string, model: KnownModel): boolean {
  const marker = path.join(modelDir(modelsDir, model), INSTALLED_MARKER);
  if (!fs.existsSync(marker)) return false;
  try {
    const record = JSON.parse(fs.readFileSync(marker, "utf8")) as { revision?: string };
    return record.revision === model.revision;
  } catch {
    return false;
  }
}

/**
 * Downloads a known model from the hub into `modelsDir/<name>`, pinned: each file is fetched at
 * the model's revision, hashed as it streams, and kept only if its SHA-256 matches the pin. A
 * file cut short is resumed from where it stopped (an HTTP range request), a file already
 * verified is not fetched again, and the model counts as installed only once its record is
 * written, after every file. Nothing is downloaded but what `model` lists.
 */
export async function pullModel(model: KnownModel, options: PullOptions): Promise<string> {
  const dir = modelDir(options.modelsDir, model);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const sizes = new Map(model.files.map((f) => [f.path, f.bytes]));
  const done = new Map<string, number>();
  let resumedBytes = 0;
  const report = (file: string) =>
    options.progress?.({
      file,
      doneBytes: [...done.values()].reduce((a, b) => a + b, 0),
      totalBytes: [...sizes.values()].reduce<number>((a, b) => a + (b ?? 0), 0),
      resumedBytes,
    });

  for (const file of model.files) {
    const target = path.join(dir, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (fs.existsSync(target) && (await sha256Of(target)) === file.sha256) {
      const size = fs.statSync(target).size;
      sizes.set(file.path, size);
      done.set(file.path, size);
      resumedBytes += size;
      report(file.path);
      continue;
    }
    const url = `${options.hub.replace(/\/+$/, "")}/${model.repository}/resolve/${model.revision}/${file.path}`;
    const partial = `${target}.part`;
    resumedBytes += await download(url, partial, options.signal, (bytes, total) => {
      if (total !== undefined) sizes.set(file.path, total);
      done.set(file.path, bytes);
      report(file.path);
    });
    const digest = await sha256Of(partial);
    if (digest !== file.sha256) {
      fs.rmSync(partial, { force: true });
      throw new ModelPullError(
        `${model.repository} ${file.path} at ${model.revision.slice(0, 12)} has SHA-256 ${digest}, not the pinned ${file.sha256}: ` +
          "refusing it (the download is deleted); the hub's file is not the one memd was measured with",
        false,
      );
    }
    fs.renameSync(partial, target);
  }
  const record = { name: model.name, repository: model.repository, revision: model.revision, files: model.files.map((f) => ({ path: f.path, sha256: f.sha256 })) };
  const marker = path.join(dir, INSTALLED_MARKER);
  fs.writeFileSync(`${marker}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(`${marker}.tmp`, marker);
  return dir;
}

/**
 * Fetches `url` into `partial`, resuming what is there with a range request (starting over if
 * the server ignores it); reports bytes in hand and the file's size once known. Returns the
 * bytes kept from before.
 */
async function download(
  url: string,
  partial: string,
  signal: AbortSignal | undefined,
  onBytes: (bytes: number, total: number | undefined) => void,
): Promise<number> {
  const have = fs.existsSync(partial) ? fs.statSync(partial).size : 0;
  let response: Response;
  try {
    response = await fetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, redirect: "follow", signal });
  } catch (error) {
    throw new ModelPullError(`cannot reach ${new URL(url).origin} for ${url}: ${errorText(error)}`, true, { cause: error });
  }
  // 416: the part is already whole (a download cut after its last byte, before the rename).
  if (response.status === 416 && have > 0) {
    onBytes(have, have);
    return have;
  }
  if (!response.ok || !response.body) {
    throw new ModelPullError(`${url} answered HTTP ${response.status}`, response.status >= 500 || response.status === 429);
  }
  const resumed = response.status === 206 ? have : 0;
  const length = Number(response.headers.get("content-length") ?? Number.NaN);
  const total = Number.isFinite(length) ? resumed + length : undefined;
  const out = fs.createWriteStream(partial, { flags: resumed > 0 ? "a" : "w" });
  let bytes = resumed;
  onBytes(bytes, total);
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      bytes += chunk.length;
      onBytes(bytes, total);
    }
  } catch (error) {
    throw new ModelPullError(`the download of ${url} broke off after ${bytes} bytes (${errorText(error)}); pull again to resume it`, true, { cause: error });
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  if (total !== undefined && bytes !== total) {
    throw new ModelPullError(`the download of ${url} ended at ${bytes} of ${total} bytes; pull again to resume it`, true);
  }
  return resumed;
}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return String(error);
}
