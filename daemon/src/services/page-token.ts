import { InvalidInputError } from "../errors.js";

/** Page tokens are opaque to clients: the last id of the previous page, base64url-encoded. */
export function encodePageToken(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId })).toString("base64url");
}

export function decodePageToken(token: string): string | undefined {
  if (token === "") return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { after?: unknown };
    if (typeof parsed.after === "string") return parsed.after;
  } catch {
    // Reported below as an invalid token.
  }
  throw new InvalidInputError("page_token is not one this daemon issued: pass next_page_token unchanged");
}
