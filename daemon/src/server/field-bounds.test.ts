import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ImportRequestSchema } from "../../../gen/memd/v1/admin_service_pb.js";
import { CompressMemoryFilesRequestSchema } from "../../../gen/memd/v1/memory_file_service_pb.js";
import { ListRequestSchema, SaveRequestSchema, UpdateRequestSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import { oversizedField } from "./field-bounds.js";

describe("request field bounds", () => {
  it("accepts a request within every bound", () => {
    const save = create(SaveRequestSchema, { content: "x".repeat(100_000), sessionId: "s".repeat(256), concepts: Array.from({ length: 256 }, (_, i) => `c${i}`) });
    expect(oversizedField(SaveRequestSchema, save)).toBeNull();
  });

  it("names a string over its own bound, in bytes", () => {
    expect(oversizedField(SaveRequestSchema, create(SaveRequestSchema, { content: "ok", sessionId: "é".repeat(129) }))).toBe("session_id is 258 bytes; at most 256 are accepted");
  });

  it("bounds a string without a bound of its own by the default", () => {
    const compress = create(CompressMemoryFilesRequestSchema, { paths: [`/tmp/${"a".repeat(6000)}`] });
    expect(oversizedField(CompressMemoryFilesRequestSchema, compress)).toBe("paths[0] is 6005 bytes; at most 4096 are accepted");
  });

  it("counts the entries of a list before looking at any", () => {
    const list = create(ListRequestSchema, { kinds: Array.from({ length: 50_000 }, () => 1) });
    expect(oversizedField(ListRequestSchema, list)).toBe("kinds has 50000 entries; at most 32 are accepted");
  });

  it("looks into nested messages and lists of messages", () => {
    const update = create(UpdateRequestSchema, { id: "01J", concepts: { values: ["a", "b".repeat(3000)] } });
    expect(oversizedField(UpdateRequestSchema, update)).toBe("concepts.values[1] is 3000 bytes; at most 2048 are accepted");
    const imported = create(ImportRequestSchema, { memories: [{ id: "a" }, { id: "b", sessionId: "s".repeat(1_000_000) }] });
    expect(oversizedField(ImportRequestSchema, imported)).toBe("memories[1].session_id is 1000000 bytes; at most 256 are accepted");
  });
});
