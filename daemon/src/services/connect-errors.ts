import { Code, ConnectError } from "@connectrpc/connect";
import {
  ConflictError, FailedPreconditionError, InvalidInputError, NotFoundError, SchemaTooNewError, TooLargeError, UnavailableError,
} from "../errors.js";
import { isDatabaseLocked } from "../store/database-locked.js";

/** The one place where domain errors become Connect codes. */
const CODES: [new (...args: never[]) => Error, Code][] = [
  [InvalidInputError, Code.InvalidArgument],
  [NotFoundError, Code.NotFound],
  [TooLargeError, Code.ResourceExhausted],
  [ConflictError, Code.AlreadyExists],
  [SchemaTooNewError, Code.FailedPrecondition],
  [UnavailableError, Code.Unavailable],
  [FailedPreconditionError, Code.FailedPrecondition],
];

/**
 * Maps an error thrown by a handler to what the client sees. ConnectErrors pass through;
 * known domain errors keep their message; anything else becomes Internal with a pointer to
 * the log, and its details stay on this machine's log.
 */
export function toConnectError(error: unknown, requestId: string): ConnectError {
  if (error instanceof ConnectError) return error;
  for (const [type, code] of CODES) {
    if (error instanceof type) return new ConnectError(error.message, code, undefined, undefined, error);
  }
  // SQLite's own refusals say something a person can act on; its transaction was rolled back.
  const sqliteCode = (error as { code?: unknown } | null)?.code;
  if (sqliteCode === "SQLITE_FULL") {
    return new ConnectError("the disk that holds MEMD_HOME is full, so nothing of this call was stored: free some space and try again (reads still work)", Code.ResourceExhausted, undefined, undefined, error);
  }
  if (isDatabaseLocked(error)) {
    return new ConnectError("the database is locked by another process (a sqlite3 shell or a backup holding a write transaction), so nothing of this call was stored: end that transaction and try again (reads still work)", Code.Unavailable, undefined, undefined, error);
  }
  return new ConnectError(
    `memd hit an internal error (request ${requestId}); the details are in MEMD_HOME/logs/memd.log`,
    Code.Internal,
    undefined,
    undefined,
    error,
  );
}
