import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { monotonicFactory } from "ulid";
import { AdminService } from "../../gen/memd/v1/admin_service_pb.js";
import { CaptureService } from "../../gen/memd/v1/capture_service_pb.js";
import { ChangeService } from "../../gen/memd/v1/change_service_pb.js";
import { MemoryService } from "../../gen/memd/v1/memory_service_pb.js";
import { SkillService } from "../../gen/memd/v1/skill_service_pb.js";
import { ContradictionService } from "../../gen/memd/v1/contradiction_service_pb.js";
import { MemoryFileService } from "../../gen/memd/v1/memory_file_service_pb.js";
import { ModelService } from "../../gen/memd/v1/model_service_pb.js";
import { VaultService } from "../../gen/memd/v1/vault_service_pb.js";
import { HubService } from "../../gen/memd/v1/hub_service_pb.js";
import { InjectionService } from "../../gen/memd/v1/injection_service_pb.js";
import { ViewerService } from "../../gen/memd/v1/viewer_service_pb.js";
import type { Config, ListenAddress } from "./config/config.js";
import { type ChooseEmbedderOptions, chooseEmbedder, embedderForSpace } from "./embed/choose-embedder.js";
import { EmbeddingRuntime, type EmbeddingRuntimeOptions } from "./embed/embedding-runtime.js";
import { chooseChatModel } from "./llm/choose-chat-model.js";
import { createClusterSummariser } from "./llm/cluster-summary.js";
import { modelLabel } from "./llm/chat-model.js";
import { createTranscriptDistiller } from "./llm/transcript-distiller.js";
import { InjectionRecorder } from "./injections/injection-recorder.js";
import { TokenThread } from "./injections/token-thread.js";
import { Maintenance } from "./maintenance/maintenance.js";
import { MemoryFileSyncer } from "./memory-files/memory-file-syncer.js";
import { createLogger, type Logger } from "./logger.js";
import { mergeNewlyEmbedded } from "./memory/merge-duplicates.js";
import { createBinaryIndex } from "./vectors/binary-index.js";
import { quantizerFromBytes, quantizerToBytes, trainQuantizer, untrainedQuantizer } from "./vectors/sign-quantizer.js";
import { createAdminService } from "./services/admin-service.js";
import { createCaptureService } from "./services/capture-service.js";
import { createChangeService } from "./services/change-service.js";
import type { ServiceDeps } from "./services/deps.js";
import { createMemoryService } from "./services/memory-service.js";
import { createMemoryFileService } from "./services/memory-file-service.js";
import { createModelService } from "./services/model-service.js";
import { createProjectResolver } from "./services/project-resolver.js";
import { createSkillService } from "./services/skill-service.js";
import { createContradictionService } from "./services/contradiction-service.js";
import { ContradictionWatch } from "./contradictions/contradiction-watch.js";
import { createContradictionJudge } from "./llm/contradiction-judge.js";
import { createVaultService, type VaultHandle } from "./services/vault-service.js";
import { createViewerService } from "./services/viewer-service.js";
import { createHubService } from "./services/hub-service.js";
import { createInjectionService } from "./services/injection-service.js";
import { HubController } from "./hub/hub-controller.js";
import { initHub } from "./hub/hub-migrate.js";
import { connectHub } from "./hub/pg-hub.js";
import { type ConnectHandlerOptions, createConnectHandler } from "./server/connect-adapter.js";
import { acquireInstanceLock } from "./server/instance-lock.js";
import { loggingInterceptor } from "./server/interceptors.js";
import { fieldBoundsInterceptor } from "./server/field-bounds.js";
import { lockRetryInterceptor } from "./server/lock-retry.js";
import { type ListenerHandler, listenerOrigin, Listeners } from "./server/listeners.js";
import { hookRequestRefusal, tcpRequestRefusal } from "./server/tcp-auth.js";
import { loadOrCreateToken } from "./server/token.js";
import { readListenFile } from "./config/listen-file.js";
import { openStore } from "./store/open-store.js";
import type { SqliteStore } from "./store/sqlite/sqlite-store.js";
import { ShutdownPhases } from "./shutdown-phases.js";
import { rebuildFromVault, vaultHasFiles } from "./vault/rebuild-from-vault.js";
import { VaultWatcher, type VaultWatcherOptions } from "./vault/vault-watcher.js";
import { maxVaultFileBytes } from "./vault/vault-files.js";
import { VaultWriter } from "./vault/vault-writer.js";
import { readVersion } from "./version.js";
import { createViewerRoutes, fromViewerPage, VIEWER_SESSION_HEADER } from "./viewer/viewer-http.js";
import { ViewerSessions } from "./viewer/viewer-sessions.js";

export interface DaemonOptions {
  /** The clock; tests inject one to live through months in milliseconds. */
  now?: () => number;
  /** How long shutdown waits for calls in flight and transcript sweeps (10 s); tests shorten it. */
  drainTimeoutMs?: number;
}

export interface RunningDaemon {
  socketPath: string;
  /** The bound TCP address, if TCP was asked for. */
  tcp: { host: string; port: number } | null;
  logger: Logger;
  /** Stops in the phases of shutdown-phases.ts: stops accepting, drains, aborts, stops the workers, closes the database. Safe to call twice. */
  close(): Promise<void>;
}

// Large enough for an Import batch of 1,000 memories; single memories are limited by content size.
const READ_MAX_BYTES = 32 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 10_000;
const ABORT_GRACE_MS = 500;
/** The web viewer's built page: dist/clients/web, beside dist/daemon. */
const VIEWER_DIR = fileURLToPath(new URL("../../clients/web/", import.meta.url));

export async function startDaemon(config: Config, options: DaemonOptions = {}): Promise<RunningDaemon> {
  const now = options.now ?? Date.now;
  const drainTimeoutMs = options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS;
  fs.mkdirSync(config.home, { recursive: true, mode: 0o700 });
  fs.chmodSync(config.home, 0o700);
  const { logger, flush } = createLogger(config.logDir, config.logLevel);
  const lock = acquireInstanceLock(config.pidFile);
  const phases = new ShutdownPhases({
    // Not once the log is flushed: what is said after may be lost.
    phase: (phase) => phase !== "flush the log" && phase !== "release the lock" && logger.info({ phase }, "memd stopping"),
    failed: (phase, error) => logger.error({ err: error, phase }, "a step of shutdown failed; the next ones still run"),
  });
  phases.on("release the lock", () => lock.release());
  phases.on("flush the log", () => flush());

  try {
    // A database lost (or never made) beside a vault that holds memories is rebuilt from the vault.
    const databaseMissing = !fs.existsSync(config.dbFile);
    const store = openStore({
      file: config.dbFile, backupDir: config.backupDir, now,
      onUnreadableRow: (memoryId, problems) =>
        logger.warn({ memoryId, problems }, "a stored memory holds values memd cannot use: it is read with them repaired, and stays as stored until it is updated"),
      onChangeListenerError: (error) => logger.error({ err: error }, "a listener of the change feed failed; the others were told"),
    });
    phases.on("close the store", () => store.close());
    if (store.backupFile) logger.info({ backup: store.backupFile }, "database copied before migrating");

    // Optional (MEMD_LLM): summaries for consolidation, distillation for the transcript sweep, and
    // judgements of the contradictions the rules could not decide.
    const llm = chooseChatModel(config.llm, store.llmSpend, now);
    if (llm) logger.info({ model: modelLabel(llm), dailyTokens: config.llm.dailyTokens }, "language model configured for consolidation, transcript sweeps and contradictions");
    const contradictions = new ContradictionWatch({ store, judge: llm && createContradictionJudge(llm), logger, now });
    phases.on("stop workers", () => contradictions.close());

    const embeddings = await startEmbeddings(config, store, logger, now, (seqs, runtime) =>
      mergeNewlyEmbedded(store, store.vectors, (seq, filter, limit) => runtime.similarTo([seq], filter, limit), seqs, now(), logger, contradictions),
    );
    if (embeddings) phases.on("stop workers", () => embeddings.close());

    const newId = monotonicFactory();
    const maintenance = new Maintenance({
      store, changes: store.changes, embeddings, logger, now, newId: () => newId(now()), halfLives: config.halfLives, summariser: llm && createClusterSummariser(llm),
      injections: { log: store.injectionLog, retention: config.injectionRetention },
    });
    maintenance.start();
    phases.on("stop workers", () => maintenance.stop());
    const limits = { maxContentBytes: config.maxContentBytes };
    const vault = startVault(config, store, logger, { now, newId: () => newId(now()), limits, contradictions });
    if (vault) {
      phases.on("stop workers", () => vault.writer.stop());
      phases.on("stop workers", () => vault.watcher.stop());
    }
    const memoryFiles = new MemoryFileSyncer({ store, logger, now, halfLives: config.halfLives });
    memoryFiles.start();
    phases.on("stop workers", () => memoryFiles.stop());
    // The hub, when one is connected (memctl hub connect, or MEMD_HUB_URL): synced off every request's path.
    const hub = new HubController({
      store: store.hub, envUrl: config.hubUrl, connect: connectHub, initSchema: initHub, logger, now, limits, version: readVersion(), changes: store.changes,
    });
    hub.start();
    phases.on("stop workers", () => hub.stop());
    // What Brief, Suggest and Recall gave is stored after each answer; the last ones before the database closes.
    const tokens = new TokenThread();
    const recorder = new InjectionRecorder({ log: store.injectionLog, countTokens: (texts) => tokens.count(texts), logger });
    phases.on("stop workers", async () => {
      await recorder.settled();
      await tokens.close();
    });
    const deps: ServiceDeps = {
      store,
      embeddings,
      recorder,
      maintenance,
      contradictions,
      resolveProject: createProjectResolver(store),
      now,
      newId: () => newId(now()),
      limits,
      halfLives: config.halfLives,
      claudeHome: config.claudeHome,
      models: { dir: config.embeddings.modelsDir, hub: config.embeddings.modelsHub },
      llm,
      vaultNotice: vault ? () => vault.watcher.takeNotice() : undefined,
      daemon: {
        version: readVersion(),
        home: config.home,
        socketPath: config.socketPath,
        backupDir: config.backupDir,
        pid: process.pid,
        startedAt: now(),
      },
    };
    // Background transcript sweeps finish (or time out) before the database closes.
    const capture = createCaptureService(deps, { distiller: llm && createTranscriptDistiller(llm) });
    phases.on("stop workers", () => capture.drain(drainTimeoutMs));
    const viewerSessions = new ViewerSessions();
    // Aborted as shutdown begins: watches of the change feed end then, instead of holding up the drain.
    const stopping = new AbortController();
    let tcp: RunningDaemon["tcp"] = null;
    const routes = (router: ConnectRouter) => {
      router.service(MemoryService, createMemoryService(deps));
      router.service(AdminService, createAdminService(deps));
      router.service(SkillService, createSkillService(deps));
      router.service(ContradictionService, createContradictionService(deps));
      router.service(CaptureService, capture.service);
      router.service(MemoryFileService, createMemoryFileService(deps, memoryFiles));
      router.service(ModelService, createModelService(deps));
      router.service(VaultService, createVaultService(deps, vault));
      router.service(HubService, createHubService(hub));
      router.service(InjectionService, createInjectionService(deps));
      router.service(ViewerService, createViewerService({ sessions: viewerSessions, now: deps.now, origin: () => (tcp ? listenerOrigin(tcp) : null) }));
      router.service(
        ChangeService,
        createChangeService({ changes: store.changes, stopping: stopping.signal, sessionEnd: (header) => viewerSessions.endOf(header.get(VIEWER_SESSION_HEADER) ?? "") }),
      );
    };
    if (vault && databaseMissing && vaultHasFiles(vault.dir)) {
      // Edits are read once the files' memories are back: before, every file would name a memory memd does not hold.
      logger.warn({ vault: vault.dir }, "no database, but a vault: rebuilding the memories from its files");
      void rebuildFromVault(vault.dir, store, vault.store, deps.limits)
        .then((outcome) => {
          logger.info({ ...outcome, problems: outcome.problems.length }, "memories rebuilt from the vault");
          for (const problem of outcome.problems) logger.warn(problem, "vault file left out of the rebuild");
        })
        .catch((error: unknown) => logger.error({ err: error }, "rebuilding from the vault failed: run memctl vault rebuild"))
        .finally(() => void vault.watcher.start());
    } else if (vault) {
      void vault.watcher.start();
    }
    // Aborts the signal of every call still running once the drain is over: streams that
    // check it (export, reindex) stop, with an error, before the database and the log close.
    const shutdown = new AbortController();
    const handler = (guard: Pick<ConnectHandlerOptions, "refuse" | "refuseHook" | "pages">): ListenerHandler => (admitted) =>
      createConnectHandler({
        routes,
        interceptors: [loggingInterceptor(logger), fieldBoundsInterceptor(), lockRetryInterceptor()],
        ...guard,
        admitted,
        logger,
        readMaxBytes: READ_MAX_BYTES,
        shutdownSignal: shutdown.signal,
        // Strict JSON: a misspelt field or enum name is an error, not silently dropped.
        jsonOptions: { ignoreUnknownFields: false },
      });
    const listeners = new Listeners();
    phases.on("stop accepting", () => {
      listeners.stopAccepting();
      stopping.abort();
      listeners.closeIdle();
    });
    phases.on("drain", () => listeners.drained(drainTimeoutMs));
    phases.on("abort", async () => {
      shutdown.abort(new ConnectError(`memd shut down before the call was done (it waits ${drainTimeoutMs / 1000} s for calls in flight); run it again`, Code.Unavailable));
      // Time for those calls to send their callers that error before the connections are cut.
      await listeners.drained(ABORT_GRACE_MS);
      listeners.destroy();
    });
    // First of all: calls in flight to a model abort, so that requests, sweeps and maintenance runs
    // waiting on one fall back to their deterministic results and finish at once.
    if (llm) phases.on("stop accepting", () => llm.close());
    await listeners.listenSocket(config.socketPath, handler({}));

    const listen = config.listen ?? recordedListenAddress(config.listenFile, logger);
    if (listen) {
      const token = loadOrCreateToken(config.tokenFile);
      const hookToken = loadOrCreateToken(config.hookTokenFile);
      const guard = handler({
        refuse: tcpRequestRefusal([token], (headers) => fromViewerPage(headers, viewerSessions, deps.now())),
        refuseHook: hookRequestRefusal(token, hookToken),
        pages: createViewerRoutes({ sessions: viewerSessions, dir: VIEWER_DIR, now: deps.now, logger }),
      });
      try {
        tcp = await listeners.listenTcp(listen, guard);
      } catch (error) {
        // An address the user named must work; the one setup recorded for the http hooks must
        // not keep memd from starting when another program took its port meanwhile.
        if (config.listen !== null) throw error;
        logger.error(
          { err: error, listen: `${listen.host}:${listen.port}`, file: config.listenFile },
          "cannot listen on the address setup recorded for the agents' http hooks; they fail (open) until it is free: run memctl setup again to choose another port",
        );
      }
    }
    logger.info({ socket: config.socketPath, tcp, version: deps.daemon.version, schema: store.schemaVersion }, "memd started");

    return {
      socketPath: config.socketPath,
      tcp,
      logger,
      close: () => phases.run(),
    };
  } catch (error) {
    await phases.run();
    throw error;
  }
}

/** Chooses the embedder and starts the embedding runtime, unless embeddings are turned off. */
async function startEmbeddings(
  config: Config,
  store: SqliteStore,
  logger: Logger,
  now: () => number,
  onVectorsStored: NonNullable<EmbeddingRuntimeOptions["onVectorsStored"]>,
): Promise<EmbeddingRuntime | null> {
  const { embeddings: settings } = config;
  if (settings.choice === "none") {
    logger.info("embeddings are turned off (embedder none): keyword search only");
    return null;
  }
  const options: ChooseEmbedderOptions = {
    setting: settings.choice,
    settingSource: `embedder setting "${settings.choice}"`,
    ollama: { host: settings.ollamaHost, model: settings.ollamaModel },
    openai: { apiKey: settings.openaiApiKey, baseUrl: settings.openaiBaseUrl, model: settings.openaiModel },
    onnx: { modelsDir: settings.modelsDir, model: settings.onnxModel },
  };
  const chosen = await chooseEmbedder(options);
  return EmbeddingRuntime.start({
    vectorStore: store.vectors,
    changes: store.changes,
    admits: (filter) => store.admits(filter),
    embedder: chosen.embedder,
    reason: chosen.reason,
    createIndex: (space, exactVectors) =>
      createBinaryIndex({
        quantizer: space.quantizer ? quantizerFromBytes(space.quantizer) : untrainedQuantizer(space.dimensions),
        exactVectors,
      }),
    trainQuantizer: (sample) => quantizerToBytes(trainQuantizer(sample)),
    embedderForSpace: (space) => embedderForSpace(space, options),
    logger,
    now,
    onVectorsStored,
  });
}


/** The address memctl setup recorded (see config/listen-file.ts); an unreadable file is logged and ignored. */
function recordedListenAddress(file: string, logger: Logger): ListenAddress | null {
  try {
    return readListenFile(file);
  } catch (error) {
    logger.error({ err: error, file }, "the recorded listen address is unusable, so memd does not listen on TCP: run memctl setup again");
    return null;
  }
}

/**
 * The vault, when it is on: changes queued from now, the writer draining the queue, and the
 * watcher that reads edits back (started by the caller, after a rebuild if there is one).
 */
function startVault(
  config: Config,
  store: SqliteStore,
  logger: Logger,
  edits: Pick<VaultWatcherOptions, "now" | "newId" | "limits" | "contradictions">,
): VaultHandle | null {
  const queued = store.vault.configure(config.vault);
  if (config.vault === null) return null;
  if (queued > 0) logger.info({ vault: config.vault, queued }, "vault turned on (or moved): every memory is queued for its file");
  const writer = new VaultWriter({ store, vault: store.vault, changes: store.changes, dir: config.vault, maxFileBytes: maxVaultFileBytes(edits.limits.maxContentBytes), logger });
  writer.start();
  const watcher = new VaultWatcher({ dir: config.vault, store, vault: store.vault, logger, ...edits, ownWrite: (relative, hash) => writer.wrote(relative, hash), busy: (relative) => writer.busy(relative) });
  return { dir: config.vault, store: store.vault, writer, watcher };
}
