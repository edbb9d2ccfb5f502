import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Memory, MemoryKind, MemoryStatus } from "../../../gen/memd/v1/memory_pb.js";
import { el } from "./dom.js";

/** A memory's content as a link to its page, as every list of memories shows it. */
export function contentLink(m: Memory): HTMLParagraphElement {
  return el("p", { className: "content" }, el("a", { text: m.content, attrs: { href: `#/memory/${m.id}` } }));
}

/** What a memory is, in a line: its kind, project, status, the day it was made and its id. */
export function memoryMeta(m: Memory): HTMLParagraphElement {
  const made = m.createTime ? timestampDate(m.createTime).toISOString().slice(0, 10) : "";
  return el("p", { className: "meta", text: [MemoryKind[m.kind]?.toLowerCase(), m.project, MemoryStatus[m.status]?.toLowerCase(), made, m.id].filter(Boolean).join(" · ") });
}
