import { randomBytes } from "node:crypto";
import fs from "node:fs";

/** Reads the TCP bearer token, creating it (0600, 256 random bits) on first use. */
export function loadOrCreateToken(tokenFile: string): string {
  try {
    const token = fs.readFileSync(tokenFile, "utf8").trim();
    if (token.length >= 32) {
      fs.chmodSync(tokenFile, 0o600);
      return token;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = randomBytes(32).toString("hex");
  fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  fs.chmodSync(tokenFile, 0o600);
  return token;
}
