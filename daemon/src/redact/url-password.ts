import { isPlaceholder } from "./placeholder.js";
import { regexDetector } from "./regex-detector.js";

/**
 * Passwords in URLs and connection strings: `scheme://user:PASSWORD@host`. Only the password is
 * redacted; scheme, user and host are what someone searching for "the staging database" types.
 * The password may not contain `/ ? #` (RFC 3986 requires them percent-encoded) but may contain
 * unencoded `@`, as hand-written DSNs often do: the last `@` before the host ends it. A URL cut
 * right after its `@` (an error message that quotes the first 40 characters of a value, then `...`) still
 * has its password taken.
 */
export const findUrlPasswords = regexDetector(
  "url-password",
  /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:/?#@[\]"'<>]*:(?<secret>[^\s/?#@"'<>]+(?:@[^\s/?#@"'<>]+)*)@(?=[A-Za-z0-9[]|["'\s.…]|$)/g,
  (password) => !isPlaceholder(password),
);
