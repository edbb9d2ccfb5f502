import { describe, expect, it } from "vitest";
import { LINK_TTL_MS, SESSION_IDLE_MS, ViewerSessions } from "./viewer-sessions.js";

const T0 = Date.parse("2026-12-02T09:00:00Z");

describe("ViewerSessions", () => {
  it("turns a sign-in code into a session once, and never again", () => {
    const viewer = new ViewerSessions();
    const { code, expiresAt } = viewer.createLink(T0);
    expect(expiresAt).toBe(T0 + LINK_TTL_MS);
    const session = viewer.redeem(code, T0 + 1000);
    expect(session).toMatch(/^[0-9a-f]{64}$/);
    expect(viewer.touch(session ?? "", T0 + 2000)).toBe(true);
    expect(viewer.redeem(code, T0 + 3000)).toBeNull();
  });

  it("ends the session a code made when the code comes again within its minute, and not after", () => {
    const viewer = new ViewerSessions();
    const { code } = viewer.createLink(T0);
    const first = viewer.redeem(code, T0 + 1000) ?? "";
    expect(viewer.redeem(code, T0 + 2000)).toBeNull();
    expect(viewer.touch(first, T0 + 3000)).toBe(false);
    const later = viewer.createLink(T0);
    const kept = viewer.redeem(later.code, T0 + 1000) ?? "";
    expect(viewer.redeem(later.code, T0 + LINK_TTL_MS)).toBeNull();
    expect(viewer.touch(kept, T0 + LINK_TTL_MS + 1)).toBe(true);
  });

  it("refuses a code after its minute and an unknown one", () => {
    const viewer = new ViewerSessions();
    const { code } = viewer.createLink(T0);
    expect(viewer.redeem(code, T0 + LINK_TTL_MS)).toBeNull();
    expect(viewer.redeem("0".repeat(64), T0)).toBeNull();
    expect(viewer.redeem("", T0)).toBeNull();
  });

  it("ends a session left unused for its idle time, and keeps one in use", () => {
    const viewer = new ViewerSessions();
    const idle = viewer.redeem(viewer.createLink(T0).code, T0) ?? "";
    const used = viewer.redeem(viewer.createLink(T0).code, T0) ?? "";
    expect(viewer.touch(used, T0 + SESSION_IDLE_MS - 1)).toBe(true);
    expect(viewer.touch(idle, T0 + SESSION_IDLE_MS)).toBe(false);
    expect(viewer.touch(used, T0 + 2 * SESSION_IDLE_MS - 2)).toBe(true);
  });

  it("revokes every session and unused link at once", () => {
    const viewer = new ViewerSessions();
    const session = viewer.redeem(viewer.createLink(T0).code, T0) ?? "";
    const { code } = viewer.createLink(T0);
    expect(viewer.revokeAll()).toEqual({ sessions: 1, links: 1 });
    expect(viewer.touch(session, T0)).toBe(false);
    expect(viewer.redeem(code, T0)).toBeNull();
  });

  it("holds at most a hundred unused links, dropping the oldest", () => {
    const viewer = new ViewerSessions();
    const first = viewer.createLink(T0).code;
    for (let i = 0; i < 100; i += 1) viewer.createLink(T0);
    expect(viewer.redeem(first, T0)).toBeNull();
  });

  it("tells a call that outlives its request when its session ends: revoked, signed out by its link used again, or idle", () => {
    const viewer = new ViewerSessions();
    const signIn = () => {
      const { code } = viewer.createLink(T0);
      return { code, session: viewer.redeem(code, T0) ?? "" };
    };
    const revoked = signIn();
    const reused = signIn();
    const idle = signIn();
    const kept = signIn();
    const ends = [revoked, reused, idle, kept].map(({ session }) => viewer.endOf(session));
    expect(ends.map((end) => end?.aborted)).toEqual([false, false, false, false]);
    viewer.redeem(reused.code, T0 + 1000);
    expect(ends.map((end) => end?.aborted)).toEqual([false, true, false, false]);
    viewer.touch(revoked.session, T0 + SESSION_IDLE_MS - 1);
    viewer.touch(kept.session, T0 + SESSION_IDLE_MS - 1);
    viewer.touch(kept.session, T0 + SESSION_IDLE_MS);
    expect(ends.map((end) => end?.aborted)).toEqual([false, true, true, false]);
    viewer.revokeAll();
    expect(ends.map((end) => end?.aborted)).toEqual([true, true, true, true]);
    expect(viewer.endOf(kept.session)).toBeUndefined();
  });
});
