import { ConflictError, FailedPreconditionError, NotFoundError, SchemaTooNewError, UnavailableError } from "../errors.js";

/** Row-level security, a missing privilege, or one of the hub's checks (22xxx data, 23xxx integrity) refused the statement. */
export function isRefusal(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return code === "42501" || code.startsWith("22") || code.startsWith("23");
}

/**
 * The hub's failures as the daemon's own errors, cause kept: refusals and bad values are the
 * request's problem; anything else (connection refused, reset, timeout, the server shutting
 * down) means the hub is unavailable for now, and the worker tries again.
 */
export function hubError(error: unknown): Error {
  if (error instanceof ConflictError || error instanceof FailedPreconditionError || error instanceof NotFoundError || error instanceof UnavailableError) return error;
  if (error instanceof SchemaTooNewError) return error;
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (isRefusal(error)) return new FailedPreconditionError(`the hub refused: ${message}`, { cause: error });
  if (code === "28P01" || code === "28000") return new FailedPreconditionError(`the hub refused the login: ${message} (check the user and password in the hub URL)`, { cause: error });
  if (code === "3D000") return new FailedPreconditionError(`the hub's database does not exist: ${message}`, { cause: error });
  return new UnavailableError(`the hub is unreachable: ${message}`, { cause: error });
}
