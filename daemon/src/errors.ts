/**
 * Domain errors. The services map each class to a Connect code in one place
 * (services/connect-errors.ts); anything else reaches the client as Internal.
 */

/** The request is malformed or a field is out of range. */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** A named memory (or other entity) does not exist. */
export class NotFoundError extends Error {
  override readonly name = "NotFoundError";
}

/** A value exceeds a configured size limit. */
export class TooLargeError extends Error {
  override readonly name = "TooLargeError";
}

/** The operation conflicts with the current state (for example, an id that already exists). */
export class ConflictError extends Error {
  override readonly name = "ConflictError";
}

/** The database was written by a newer memd than this one. */
export class SchemaTooNewError extends Error {
  override readonly name = "SchemaTooNewError";
}

/** A dependency the request needs (the embedder, a model) cannot serve it right now. */
export class UnavailableError extends Error {
  override readonly name = "UnavailableError";
}

/** The memory is not in a state that allows the operation (e.g. superseding a superseded claim). */
export class FailedPreconditionError extends Error {
  override readonly name = "FailedPreconditionError";
}
