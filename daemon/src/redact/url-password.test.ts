import { describe, expect, it } from "vitest";
import { findUrlPasswords } from "./url-password.js";

const passwords = (text: string) => findUrlPasswords(text).map((f) => text.slice(f.start, f.end));

describe("findUrlPasswords", () => {
  it("takes only the password of scheme://user:password@host", () => {
    const text = "amqp://worker:Qz81kPw@mq.internal:5672/vhost";
    const [finding] = findUrlPasswords(text);
    expect(text.slice(0, finding?.start)).toBe("amqp://worker:");
    expect(text.slice(finding?.end)).toBe("@mq.internal:5672/vhost");
  });

  it("ends the password at the last @ before the host", () => {
    expect(passwords("postgres://app:p@ss@w0rd@db:5432/acme")).toEqual(["p@ss@w0rd"]);
  });

  it("takes the password of an empty user", () => {
    expect(passwords("redis://:Zr8kQp3vW1@cache:6379")).toEqual(["Zr8kQp3vW1"]);
  });

  it("takes the password of a URL cut right after its @", () => {
    expect(passwords('concepts entry "git clone https://maya:Qe7vK4tNw9@..." is too long')).toEqual(["Qe7vK4tNw9"]);
    expect(passwords("https://maya:Qe7vK4tNw9@")).toEqual(["Qe7vK4tNw9"]);
  });

  it("leaves URLs without a password alone", () => {
    expect(passwords("https://maya@bitbucket.org/acme/api.git git@github.com:acme/api.git")).toEqual([]);
    expect(passwords("http://localhost:8080/@vite/client https://host:443/users/@maya")).toEqual([]);
  });

  it("leaves variable references in the password's place alone", () => {
    expect(passwords("postgres://app:${PGPASSWORD}@db/acme postgres://app:<password>@db/acme")).toEqual([]);
  });
});
