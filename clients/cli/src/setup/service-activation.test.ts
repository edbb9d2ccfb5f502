import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { activateService, type ActivationInput, type CommandResult, deactivateService, forgetService } from "./service-activation.js";

/** A fake systemctl/launchctl: records every call and answers from a table of failures. */
function fakeRunner(answers: Record<string, CommandResult> = {}) {
  const calls: string[] = [];
  const run = (argv: readonly string[]): CommandResult => {
    const line = argv.join(" ");
    calls.push(line);
    return answers[line] ?? { code: 0, output: "" };
  };
  return { calls, run };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function input(overrides: Partial<ActivationInput>): ActivationInput {
  const logDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memd-act-")), "logs");
  dirs.push(path.dirname(logDir));
  return { platform: "linux", file: "/h/.config/systemd/user/memd.service", rewritten: false, runningPid: null, uid: 501, logDir, ...overrides };
}

describe("systemd activation", () => {
  it("reloads, then enables and starts the unit", () => {
    const { calls, run } = fakeRunner();
    expect(activateService(input({}), run).ok).toBe(true);
    expect(calls).toEqual(["systemctl --user daemon-reload", "systemctl --user enable --now memd.service"]);
  });

  it("restarts a running service onto a rewritten unit", () => {
    const { calls, run } = fakeRunner();
    activateService(input({ rewritten: true, runningPid: 42 }), run);
    expect(calls).toEqual([
      "systemctl --user is-active --quiet memd.service",
      "systemctl --user daemon-reload",
      "systemctl --user enable --now memd.service",
      "systemctl --user try-restart memd.service",
    ]);
  });

  it("only enables the unit when memd already runs outside it, and says how to switch", () => {
    const { calls, run } = fakeRunner({ "systemctl --user is-active --quiet memd.service": { code: 3, output: "" } });
    const report = activateService(input({ runningPid: 42 }), run);
    expect(calls.at(-1)).toBe("systemctl --user enable memd.service");
    expect(report.lines.at(-1)).toContain("memd already runs (pid 42) outside the service");
  });

  it("reports a missing user bus and stops there", () => {
    const { calls, run } = fakeRunner({ "systemctl --user daemon-reload": { code: 1, output: "Failed to connect to bus: No medium found" } });
    const report = activateService(input({}), run);
    expect(report).toEqual({ ok: false, lines: ["systemctl --user daemon-reload failed (exit 1: Failed to connect to bus: No medium found)"] });
    expect(calls).toEqual(["systemctl --user daemon-reload"]);
  });

  it("disables and stops before removal, then reloads", () => {
    const { calls, run } = fakeRunner();
    expect(deactivateService("linux", 501, run).ok).toBe(true);
    expect(forgetService("linux", run).ok).toBe(true);
    expect(calls).toEqual(["systemctl --user disable --now memd.service", "systemctl --user daemon-reload"]);
  });
});

describe("launchd activation", () => {
  const notLoaded = { "launchctl print gui/501/dev.memd.daemon": { code: 113, output: "Could not find service" } };

  it("bootstraps an agent that is not loaded, creating the log directory first", () => {
    const { calls, run } = fakeRunner(notLoaded);
    const args = input({ platform: "darwin", file: "/Users/m/Library/LaunchAgents/dev.memd.daemon.plist" });
    expect(activateService(args, run).ok).toBe(true);
    expect(calls).toEqual(["launchctl print gui/501/dev.memd.daemon", "launchctl bootstrap gui/501 /Users/m/Library/LaunchAgents/dev.memd.daemon.plist"]);
    expect(fs.statSync(args.logDir).isDirectory()).toBe(true);
  });

  it("reloads a loaded agent whose plist was rewritten, and leaves an unchanged one alone", () => {
    const rewritten = fakeRunner();
    activateService(input({ platform: "darwin", file: "/p.plist", rewritten: true }), rewritten.run);
    expect(rewritten.calls).toEqual(["launchctl print gui/501/dev.memd.daemon", "launchctl bootout gui/501/dev.memd.daemon", "launchctl bootstrap gui/501 /p.plist"]);
    const same = fakeRunner();
    expect(activateService(input({ platform: "darwin", file: "/p.plist" }), same.run).lines).toEqual(["dev.memd.daemon is already loaded"]);
    expect(same.calls).toEqual(["launchctl print gui/501/dev.memd.daemon"]);
  });

  it("boots out a loaded agent on uninstall, and skips one that is not loaded", () => {
    const loaded = fakeRunner();
    deactivateService("darwin", 501, loaded.run);
    expect(loaded.calls).toEqual(["launchctl print gui/501/dev.memd.daemon", "launchctl bootout gui/501/dev.memd.daemon"]);
    const absent = fakeRunner(notLoaded);
    expect(deactivateService("darwin", 501, absent.run)).toEqual({ ok: true, lines: ["dev.memd.daemon was not loaded"] });
  });
});
