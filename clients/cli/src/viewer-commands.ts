import { spawn } from "node:child_process";
import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { OpenViewerResponseSchema, RevokeViewerSessionsResponseSchema } from "../../../gen/memd/v1/viewer_service_pb.js";
import { action } from "./context.js";

/** The web viewer: a one-time sign-in link opened in the browser, and ending its sessions. */
export function registerViewerCommands(program: Command): void {
  program
    .command("ui")
    .description("open the web viewer in the browser, signed in by a one-time link (it works once, within a minute)")
    .option("--no-open", "print the link instead of opening a browser")
    .option("--revoke", "sign out every browser: end every viewer session and unused link")
    .action(
      action(async (ctx, options: { open: boolean; revoke?: boolean }) => {
        if (options.revoke) {
          const res = await ctx.clients.viewer.revokeViewerSessions({});
          if (ctx.json) return ctx.printJson(toJson(RevokeViewerSessionsResponseSchema, res));
          return ctx.print(`ended ${res.sessions} viewer sessions and ${res.links} unused links`);
        }
        const res = await ctx.clients.viewer.openViewer({});
        if (ctx.json) return ctx.printJson(toJson(OpenViewerResponseSchema, res));
        const until = res.expiresAt ? timestampDate(res.expiresAt).toLocaleTimeString() : "a minute from now";
        if (options.open && (await openInBrowser(res.url))) return ctx.print(`opened the viewer in your browser (the link works once, until ${until})`);
        ctx.print(`open this link in your browser; it works once, until ${until}:\n${res.url}`);
      }),
    );
}

/** Starts the desktop's browser on a URL; false where there is none to start (a server over ssh, no xdg-open). */
function openInBrowser(url: string): Promise<boolean> {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer.exe" : "xdg-open";
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
