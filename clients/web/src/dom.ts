import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
/** An element with its text, class and attributes: the page builds its views from these. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { text?: string; className?: string; attrs?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.text !== undefined) node.textContent = props.text;
  if (props.className) node.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** An SVG element with its attributes and text, for the charts the page draws by hand. */
export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button that runs `act` when pressed, disabled while it runs. */
export function button(label: string, act: () => Promise<void>): HTMLButtonElement {
  const b = el("button", { text: label, attrs: { type: "button" } });
  b.addEventListener("click", () => {
    b.disabled = true;
    void act().finally(() => {
      b.disabled = false;
    });
  });
  return b;
}

/** Says what went wrong where a person sees it (role=alert), or clears it. */
export function showProblem(text: string): void {
  const line = document.getElementById("problem");
  if (line) line.textContent = text;
}

/** What the page says when the daemon takes no session from this browser. */
export const SIGNED_OUT = "This browser is not signed in to memd, or its session ended (a restart or memctl ui --revoke ends them): run memctl ui to open the viewer signed in.";

/** A failure as a sentence: the daemon's own message when it sent one. */
export function describe(error: unknown): string {
  if (error instanceof ConnectError && error.code === Code.Unauthenticated) return SIGNED_OUT;
  if (error instanceof Error) return error.message.replace(/^\[\w+\] /, "");
  return String(error);
}

/** What an action button runs: the change, then `then` with its answer (by default the view drawn again); a failure is shown, never thrown. */
export type Act = <T>(run: () => Promise<T>, then?: (answer: T) => Promise<void> | void) => () => Promise<void>;

/** The actions of a view that `redraw` draws again after each change. */
export function acting(redraw: () => Promise<void>): Act {
  const again = () => redraw().catch((error: unknown) => showProblem(describe(error)));
  return (run, then) =>
    async () => {
      try {
        const answer = await run();
        showProblem("");
        await (then ? then(answer) : again());
      } catch (error) {
        showProblem(describe(error));
      }
    };
}

/** A time as the viewer shows it, in UTC to the second ("2026-12-03 17:38:00"), or `missing`. */
export function timeText(t: Timestamp | undefined, missing = "-"): string {
  return t ? timestampDate(t).toISOString().replace("T", " ").slice(0, 19) : missing;
}
