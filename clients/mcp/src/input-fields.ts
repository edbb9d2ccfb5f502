import { z } from "zod";
import { MemoryKindSchema, ProvenanceSchema } from "../../../gen/memd/v1/memory_pb.js";
import { enumNames } from "./enum-names.js";

/** Zod fields shared by several tools; their descriptions are what the agent reads. */

export const kindField = z
  .enum(enumNames(MemoryKindSchema))
  .describe(
    "preference = how the user wants things done; rule = a standing rule to follow; decision = a choice and its reason; " +
      "fact = something true about code or environment; procedure = how to do something; episode = a bug and its fix, a finished task; " +
      "task = open work; context = background about user/team/project; idea = a thought for later; trace = a short-lived observation",
  );

export const provenanceField = z
  .enum(enumNames(ProvenanceSchema))
  .describe(
    "How it came to be (default save). human = the user said it directly; distilled = you inferred it and it is unconfirmed: " +
      "it is saved as staged (invisible to search) until promoted",
  );

export const projectField = z
  .string()
  .min(1)
  .describe('Project name. Default: derived from the working directory. Use "global" for user-wide memories (preferences that hold everywhere)');

export const idField = z.string().min(1).describe("The memory id (a ULID, as shown in results)");
export const conceptsField = z.array(z.string()).describe("Topics and entities: libraries, services, error codes, ticket ids");
export const filesField = z.array(z.string()).describe("Repository paths it is about");
export const tagsField = z.array(z.string()).describe("Free-form labels");
export const confidenceField = z.number().min(0).max(1).describe("How far it is believed, 0 (guess) to 1 (certain)");
export const importanceField = z.number().int().min(1).max(5).describe("1 trivia .. 5 critical (default 3)");
export const sessionField = z.string().describe("The agent session id (default: the session this server runs in, if known)");
export const problemField = z.string().describe("The problem that was faced");
export const solutionField = z.string().describe("How it was solved");
export const dryRunField = z.boolean().describe("Only report what would change; change nothing");
