import { describe, expect, it } from "vitest";
import { parse as parseToml } from "smol-toml";
import { codexHookHash, codexHookStatuses, codexHooksSwitchedOff, memdHookTrust, withCodexHookTrust } from "./codex-hook-trust.js";
import type { FileChange } from "./file-change.js";

const HOOKS = "/home/maya/.codex/hooks.json";
const CONFIG = "/home/maya/.codex/config.toml";
const memdCommand = (arg: string) => `/bin/sh /opt/memd/hooks/memd-hook.sh ${arg} /usr/bin/node /opt/memd/dist/hooks/src/main.js codex`;
const hooksJson = JSON.stringify({
  hooks: {
    SessionStart: [{ hooks: [{ type: "command", command: "/usr/local/bin/my-own-hook", timeout: 3 }] }, { hooks: [{ type: "command", command: memdCommand("session-start"), timeout: 10 }] }],
    Stop: [{ hooks: [{ type: "command", command: memdCommand("stop"), timeout: 5 }] }],
  },
});
const configChange = (text: string): FileChange => ({ target: "codex", path: CONFIG, before: text, after: text, summary: [], backup: true, mode: 0o644 });

describe("Codex hook trust", () => {
  it("hashes a hook as Codex 0.171.0 does (the hash its app-server's hooks/list reported for this hook)", () => {
    const handler = { type: "command", command: "/bin/sh /x/memd/hooks/memd-hook.sh session-start /usr/bin/node /x/memd/dist/hooks/src/main.js codex", timeout: 10 };
    expect(codexHookHash("SessionStart", undefined, handler)).toBe("sha256:663c5de197770173c2d1c22facbf56d1c44e713e2282b7587c238287738e8064");
  });

  it("keys memd's hooks by their place in hooks.json and leaves the user's own untrusted", () => {
    const trust = memdHookTrust(HOOKS, hooksJson, undefined);
    expect(trust.map((t) => t.key)).toEqual([`${HOOKS}:session_start:1:0`, `${HOOKS}:stop:0:0`]);
  });

  it("adds the trust once, keeps a user's enabled = false, and takes out only memd's own hash on uninstall", () => {
    const user = '[hooks.state."/home/maya/.codex/hooks.json:session_start:0:0"]\ntrusted_hash = "sha256:users-own"\n\n[hooks.state."/home/maya/.codex/hooks.json:stop:0:0"]\nenabled = false\n';
    const trust = memdHookTrust(HOOKS, hooksJson, undefined);
    const set = withCodexHookTrust(configChange(user), trust, []);
    expect(set.after).toContain(`[hooks.state."${HOOKS}:session_start:1:0"]\ntrusted_hash = "${trust[0]?.hash}"`);
    expect(set.after).toContain(`[hooks.state."${HOOKS}:stop:0:0"]\ntrusted_hash = "${trust[1]?.hash}"\nenabled = false\n`);
    expect(set.summary).toEqual(["trust memd's 2 hooks ([hooks.state] trusted_hash), so that codex exec runs them"]);
    expect(withCodexHookTrust(configChange(set.after as string), trust, trust).after).toBe(set.after);
    const removed = withCodexHookTrust(configChange(set.after as string), [], trust);
    expect(removed.after).toBe(user);
  });

  it("reads each of memd's hooks as Codex does: trusted, modified since, never trusted, or disabled", () => {
    const [start, stop] = memdHookTrust(HOOKS, hooksJson, undefined);
    const state = (key: string | undefined, pairs: string) => `[hooks.state."${key}"]\n${pairs}\n`;
    const statuses = (config: string) => codexHookStatuses(parseToml(config), HOOKS, hooksJson, undefined).map((hook) => `${hook.event} ${hook.status}`);
    expect(statuses(state(start?.key, `trusted_hash = "${start?.hash}"`) + state(stop?.key, `trusted_hash = "${stop?.hash}"`))).toEqual(["SessionStart trusted", "Stop trusted"]);
    expect(statuses(state(start?.key, 'trusted_hash = "sha256:an-older-hook"'))).toEqual(["SessionStart modified", "Stop untrusted"]);
    expect(statuses(state(stop?.key, `trusted_hash = "${stop?.hash}"\nenabled = false`))).toEqual(["SessionStart untrusted", "Stop disabled"]);
  });

  it("finds hooks switched off under [features], by name or by its deprecated alias, and on by default", () => {
    expect(codexHooksSwitchedOff(parseToml('model = "gpt-5"\n'))).toBeNull();
    expect(codexHooksSwitchedOff(parseToml("[features]\nhooks = true\n"))).toBeNull();
    expect(codexHooksSwitchedOff(parseToml("features.hooks = false\n"))).toBe("features.hooks");
    expect(codexHooksSwitchedOff(parseToml("[features]\ncodex_hooks = false\n"))).toBe("features.codex_hooks");
  });
});
