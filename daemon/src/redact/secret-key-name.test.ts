import { describe, expect, it } from "vitest";
import { isSecretKeyName, keyWords, secretKeyVerdict } from "./secret-key-name.js";

describe("keyWords", () => {
  it("splits camelCase, kebab, snake and dotted keys into lower-case words", () => {
    expect(keyWords("clientSecret")).toEqual(["client", "secret"]);
    expect(keyWords("X-Api-Key")).toEqual(["x", "api", "key"]);
    expect(keyWords("spring.datasource.password")).toEqual(["spring", "datasource", "password"]);
    expect(keyWords("_authToken")).toEqual(["auth", "token"]);
  });
});

describe("isSecretKeyName", () => {
  it("accepts keys that end in a secret word", () => {
    for (const key of ["password", "DB_PASSWORD", "passwd", "clientSecret", "GH_TOKEN", "_authToken", "apikey", "OPENAI_API_KEY", "x-api-key", "secret_key", "private_key", "DB_PASS", "SMTP_PWD", "passphrase"]) {
      expect(isSecretKeyName(key), key).toBe(true);
    }
  });

  it("rejects keys where the secret word is not last", () => {
    for (const key of ["max_tokens", "token_url", "password_min_length", "tokenizer", "secret_name", "api_key_id", "password-stdin"]) {
      expect(isSecretKeyName(key), key).toBe(false);
    }
  });

  it("rejects key alone, the shell's PWD and pagination tokens", () => {
    for (const key of ["key", "sort_key", "PWD", "OLDPWD", "OLD_PWD", "page_token", "nextPageToken", "continuation_token"]) {
      expect(isSecretKeyName(key), key).toBe(false);
    }
  });

  it("takes a bare pass only as a command-line flag", () => {
    expect(isSecretKeyName("pass")).toBe(false);
    expect(isSecretKeyName("pass", true)).toBe(true);
    expect(isSecretKeyName("bypass", true)).toBe(false);
  });
});

describe("secretKeyVerdict", () => {
  it("finds a secret word glued to the word before it", () => {
    for (const key of ["mypassword", "DBPASSWORD", "adminpasswd", "gpgpassphrase", "clientsecret", "apitoken", "signingkey", "awssecretaccesskey", "myapikey"]) {
      expect(secretKeyVerdict(key), key).toBe("secret");
    }
  });

  it("reads digits written for letters in a secret word", () => {
    for (const key of ["passw0rd", "PA55WORD", "db_p4ssw0rd", "t0ken", "ap1key", "s3cret"]) expect(secretKeyVerdict(key), key).toBe("secret");
    for (const key of ["h264", "v2", "base64", "sha256", "utf8"]) expect(secretKeyVerdict(key), key).toBe("none");
  });

  it("leaves glued words that are no credential alone", () => {
    for (const key of ["pagetoken", "nexttoken", "synctoken", "keyboard", "monkey", "hotkey", "oldpwd", "passwords"]) {
      expect(secretKeyVerdict(key), key).toBe("none");
    }
  });

  it("lets the value decide under keys that are also ordinary words or the shell's working directory", () => {
    for (const key of ["pwd", "PWD", "pass", "bypass", "compass", "rootpw", "dbpwd"]) {
      expect(secretKeyVerdict(key), key).toBe("password-like");
    }
    expect(isSecretKeyName("bypass", true)).toBe(false);
  });
});
