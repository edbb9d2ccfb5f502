import type { Provenance, Tier } from "./memory.js";

interface ProvenanceDefaults {
  confidence: number;
  tier: Tier;
}

/**
 * How far a memory is trusted by default depends on where it came from: what a person
 * says outranks what an agent infers.
 */
const DEFAULTS: Record<Provenance, ProvenanceDefaults> = {
  save: { confidence: 0.5, tier: "regular" },
  checkpoint: { confidence: 0.65, tier: "regular" },
  debate: { confidence: 0.85, tier: "core" },
  human: { confidence: 0.95, tier: "core" },
  distilled: { confidence: 0.3, tier: "regular" },
  import: { confidence: 0.5, tier: "regular" },
};

export function provenanceDefaults(provenance: Provenance): ProvenanceDefaults {
  return DEFAULTS[provenance];
}
