import fs from "node:fs";
import path from "node:path";
import type { ServiceImpl } from "@connectrpc/connect";
import { CompressOutcome, MemoryFileService, type MemoryFileSync } from "../../../gen/memd/v1/memory_file_service_pb.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { GLOBAL_PROJECT } from "../memory/memory.js";
import { claudeMemoryDir, claudeMemoryIndex, isMarkdownFile } from "../memory-files/claude-paths.js";
import { type CompressedNote, compressNotes } from "../memory-files/compress-notes.js";
import type { MemoryFileSyncer, MemoryFileSyncState } from "../memory-files/memory-file-syncer.js";
import { timeToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";
import type { ProjectHint } from "./project-resolver.js";
import { validateAbsolutePath } from "../memory/validate.js";

const OUTCOMES: Record<CompressedNote["outcome"], CompressOutcome> = {
  compressed: CompressOutcome.COMPRESSED,
  "already-stub": CompressOutcome.ALREADY_STUB,
  "not-in-database": CompressOutcome.NOT_IN_DATABASE,
  skipped: CompressOutcome.SKIPPED,
};

/** MEMORY.md sync and compress: the files live outside MEMD_HOME, so every path is checked here first. */
export function createMemoryFileService(deps: ServiceDeps, syncer: MemoryFileSyncer): ServiceImpl<typeof MemoryFileService> {
  const { store } = deps;

  /** The request's project, which must be one memd knows (a named project nobody ever used is a typo). */
  const projectOf = (hint: ProjectHint): string => {
    const project = deps.resolveProject(hint);
    if (project === undefined) throw new InvalidInputError("name the project (project) or send the working directory (cwd)");
    const known = project === GLOBAL_PROJECT || store.projectRoot(project) !== undefined || store.projects().some((p) => p.name === project);
    if (!known) throw new NotFoundError(`no project is named "${project}": check the name (memctl sync lists the projects) or run from the project's directory`);
    return project;
  };

  /** The project's root directory, from which Claude Code's memory folder is derived. */
  const rootOf = (project: string, what: string): string => {
    const root = project === GLOBAL_PROJECT ? undefined : store.projectRoot(project);
    if (root === undefined) {
      throw new InvalidInputError(`project "${project}" has no known directory, so there is no default ${what}: run from inside the project or give the path`);
    }
    return root;
  };

  return {
    enableMemoryFileSync(req) {
      const project = projectOf(req);
      let file: string;
      let createDirectory = false;
      if (req.path === "") {
        file = claudeMemoryIndex(deps.claudeHome, rootOf(project, "MEMORY.md"));
        createDirectory = true;
      } else {
        file = checkedSyncPath(req.path);
      }
      const { sync, previousPath } = syncer.enable(project, file, createDirectory);
      return { sync: syncToPb(sync), previousPath };
    },

    disableMemoryFileSync(req) {
      const project = deps.resolveProject(req);
      if (project === undefined) throw new InvalidInputError("name the project (project) or send the working directory (cwd)");
      const { sync, sectionRemoved } = syncer.disable(project);
      return { sync: syncToPb(sync), sectionRemoved };
    },

    listMemoryFileSyncs() {
      return { syncs: syncer.list().map(syncToPb) };
    },

    compressMemoryFiles(req) {
      const project = projectOf(req);
      let paths = req.paths;
      if (paths.length === 0) {
        const dir = claudeMemoryDir(deps.claudeHome, rootOf(project, "memory directory"));
        if (!fs.existsSync(dir)) {
          throw new NotFoundError(`Claude Code has no memory directory for project "${project}" (${dir}): pass the directory or the notes to compress`);
        }
        paths = [dir];
      }
      const files = compressNotes({
        paths,
        project,
        dryRun: req.dryRun,
        backupDir: deps.daemon.backupDir,
        now: deps.now(),
        holdersOf: (content) => store.withSameContent(content),
      });
      return {
        files: files.map((f) => ({ path: f.path, outcome: OUTCOMES[f.outcome], memoryId: f.memoryId, reason: f.reason, backupPath: f.backupPath })),
        dryRun: req.dryRun,
        project,
      };
    },
  };
}

/** An explicit MEMORY.md path: absolute, Markdown, in a directory that exists, not itself a directory. */
function checkedSyncPath(given: string): string {
  const file = validateAbsolutePath("path", given, "the absolute path of a .md file");
  if (!isMarkdownFile(file)) throw new InvalidInputError(`path ${file} is not a Markdown file: give a path ending in .md`);
  if (!fs.existsSync(path.dirname(file))) throw new NotFoundError(`the directory ${path.dirname(file)} does not exist: create it first or choose another path`);
  if (fs.existsSync(file) && !fs.statSync(file).isFile()) throw new InvalidInputError(`path ${file} is not a regular file`);
  return file;
}

function syncToPb(sync: MemoryFileSyncState): Omit<MemoryFileSync, "$typeName"> {
  return {
    project: sync.project,
    path: sync.path,
    enableTime: timeToPb(sync.enabledAt),
    lastWriteTime: timeToPb(sync.lastWriteAt),
    lastError: sync.lastError,
  };
}
