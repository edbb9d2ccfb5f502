import fs from "node:fs";
import path from "node:path";
import type { DescField, DescMessage, DescMethod, DescService } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { REPO_ROOT } from "../helpers/daemon.js";

/** One RPC the daemon may serve, found in the generated code. */
export interface Rpc {
  method: DescMethod;
  /** "memd.v1.MemoryService/Save". */
  name: string;
  /** The HTTP path, "/memd.v1.MemoryService/Save". */
  path: string;
  /** Read-only RPCs may also be called with Connect's GET. */
  allowsGet: boolean;
}

/** A field a hostile value goes into: its descriptor and the fields leading to it from the request. */
export interface FieldTarget {
  rpc: Rpc;
  /** From the request message down; the last one gets the hostile value. */
  fields: DescField[];
  /** "memories.content". */
  name: string;
}

const GEN_DIR = path.join(REPO_ROOT, "gen/memd/v1");
// Nested far enough for Import's memories and Update's string lists; memd has no recursive request.
const MAX_DEPTH = 3;

/**
 * Every RPC of every service in gen/, by reflection over the generated descriptors, so that an RPC
 * added to the protos is probed without touching this suite.
 */
export async function loadRpcs(): Promise<Rpc[]> {
  const rpcs: Rpc[] = [];
  for (const file of fs.readdirSync(GEN_DIR).filter((name) => name.endsWith("_pb.ts")).sort()) {
    const exports = (await import(path.join(GEN_DIR, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if ((value as DescService | null)?.kind !== "service") continue;
      for (const method of (value as DescService).methods) {
        const name = `${method.parent.typeName}/${method.name}`;
        rpcs.push({ method, name, path: `/${name}`, allowsGet: method.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS });
      }
    }
  }
  return rpcs;
}

/** Every field of an RPC's request, nested messages included (but not the insides of well-known types). */
export function fieldTargets(rpc: Rpc): FieldTarget[] {
  const targets: FieldTarget[] = [];
  const walk = (message: DescMessage, above: DescField[]) => {
    for (const field of message.fields) {
      const fields = [...above, field];
      targets.push({ rpc, fields, name: fields.map((f) => f.name).join(".") });
      const inner = field.message;
      if (inner && !isWellKnown(inner) && fields.length < MAX_DEPTH) walk(inner, fields);
    }
  };
  walk(rpc.method.input, []);
  return targets;
}

export function isWellKnown(message: DescMessage): boolean {
  return message.typeName.startsWith("google.protobuf.");
}
