import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type ModelService, PullModelResponseSchema } from "../../../gen/memd/v1/model_service_pb.js";
import { spaceKey } from "../embed/embedder.js";
import { KNOWN_MODELS, knownModel } from "../embed/known-models.js";
import { isInstalled, ModelPullError, modelDir, type PullProgress, pullModel } from "../embed/model-pull.js";
import { FailedPreconditionError, NotFoundError, UnavailableError } from "../errors.js";
import type { ServiceDeps } from "./deps.js";

/** Progress messages at most this often: a terminal redraws no faster, and a fast pull would send thousands. */
const PROGRESS_EVERY_MS = 100;

export function createModelService(deps: ServiceDeps): ServiceImpl<typeof ModelService> {
  // Two pulls of one model would write the same partial files.
  const pulling = new Set<string>();
  return {
    listModels() {
      const status = deps.embeddings?.status();
      return {
        models: KNOWN_MODELS.map((m) => ({
          name: m.name, repository: m.repository, revision: m.revision, summary: m.summary, dimensions: m.dimensions,
          installed: isInstalled(deps.models.dir, m), path: modelDir(deps.models.dir, m),
        })),
        activeSpace: status ? spaceKey(status.space) : "",
      };
    },

    async *pullModel(req, ctx) {
      const model = knownModel(req.name);
      if (!model) throw new NotFoundError(`memd knows no model "${req.name}"; it can pull ${KNOWN_MODELS.map((m) => m.name).join(", ")}`);
      if (pulling.has(model.name)) throw new FailedPreconditionError(`${model.name} is being pulled already; wait for that pull to end`);
      pulling.add(model.name);
      try {
        let latest: PullProgress | undefined;
        let wake: (() => void) | undefined;
        let sentAt = 0;
        const result = pullModel(model, {
          modelsDir: deps.models.dir,
          hub: deps.models.hub,
          signal: ctx.signal,
          progress: (p) => {
            latest = p;
            wake?.();
          },
        }).then(
          (dir) => ({ dir }),
          (error: unknown) => ({ error }),
        );
        let outcome: { dir: string } | { error: unknown } | undefined;
        void result.then((o) => {
          outcome = o;
          wake?.();
        });
        while (outcome === undefined) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          if (latest && outcome === undefined && Date.now() - sentAt >= PROGRESS_EVERY_MS) {
            sentAt = Date.now();
            yield progressMessage(latest, modelDir(deps.models.dir, model));
          }
        }
        if ("error" in outcome) {
          const { error } = outcome;
          if (!(error instanceof ModelPullError)) throw error;
          throw error.retryable ? new UnavailableError(error.message, { cause: error }) : new FailedPreconditionError(error.message, { cause: error });
        }
        yield { ...(latest ? progressMessage(latest, outcome.dir) : {}), done: true, path: outcome.dir };
      } finally {
        pulling.delete(model.name);
      }
    },
  };
}

function progressMessage(p: PullProgress, dir: string): MessageInitShape<typeof PullModelResponseSchema> {
  return { file: p.file, doneBytes: BigInt(p.doneBytes), totalBytes: BigInt(p.totalBytes), resumedBytes: BigInt(p.resumedBytes), path: dir };
}
