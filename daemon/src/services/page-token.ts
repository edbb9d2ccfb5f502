import { InvalidInputError } from "../errors.js";

/** Page tokens are opaque to clients: the last id of the previous page, base64url-encoded. */
export function encodePageToken(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId })).toString("base64url");
}

const NOT_ISSUED = "page_token is not one this daemon issued: pass next_page_token unchanged";

export function decodePageToken(token: string): string | undefined {
  if (token === "") return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { after?: unknown };
    if (typeof parsed.after === "string") return parsed.after;
  } catch {
    // Reported below as an invalid token.
  }
  throw new InvalidInputError(NOT_ISSUED);
}

/** A page of rows numbered newest first: the rows before the token's id, at most `size`, and the token of the next page. */
export function pageByRowId<T extends { id: number }>(token: string, size: number, read: (beforeId: number | undefined, limit: number) => T[]): { rows: T[]; nextPageToken: string } {
  const after = decodePageToken(token);
  const beforeId = after === undefined ? undefined : Number(after);
  if (beforeId !== undefined && !Number.isSafeInteger(beforeId)) throw new InvalidInputError(NOT_ISSUED);
  // One extra row tells whether another page follows.
  const rows = read(beforeId, size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { rows: page, nextPageToken: rows.length > size && last ? encodePageToken(String(last.id)) : "" };
}
