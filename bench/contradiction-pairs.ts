import fs from "node:fs";
import path from "node:path";

/** One labelled pair of bench/data/contradictions: a memory stored (old) and one written after it (new). */
export interface LabelledPair {
  id: string;
  label: "contradict" | "compatible" | "different";
  old: { kind: string; content: string };
  new: { kind: string; content: string };
  /** Where a derived pair comes from ("lme-dev:<question>"). */
  source?: string;
}

/** The parts of the set, reported apart; "held-out" is never printed pair by pair. */
export const PARTS = [
  { name: "coding, tune", file: "tune.jsonl" },
  { name: "coding, held-out", file: "heldout.jsonl" },
  { name: "lme-dev knowledge updates", file: "lme.jsonl" },
] as const;
export type PartName = (typeof PARTS)[number]["name"];

/** The targets of issue 32 for the deterministic path. */
export const TARGETS = { precision: 0.9, recall: 0.7 } as const;

export function readPairs(dir: string, file: string): LabelledPair[] {
  const lines = fs.readFileSync(path.join(dir, file), "utf8").split("\n").filter((line) => line.trim() !== "");
  return lines.map((line, i) => {
    const pair = JSON.parse(line) as LabelledPair;
    if (!["contradict", "compatible", "different"].includes(pair.label) || !pair.old?.content || !pair.new?.content) {
      throw new Error(`${file} line ${i + 1} is not a labelled pair`);
    }
    return pair;
  });
}

/** Whether each pair was reported as a contradiction, by id. */
export type Verdicts = ReadonlyMap<string, boolean>;

export interface PartScore {
  pairs: number;
  contradict: number;
  flagged: number;
  truePositives: number;
  precision: number;
  recall: number;
  /** Flags on pairs labelled compatible, and on pairs labelled different. */
  falseCompatible: number;
  falseDifferent: number;
  met: boolean;
}

export function scorePart(pairs: readonly LabelledPair[], verdicts: Verdicts): PartScore {
  const flagged = pairs.filter((p) => verdicts.get(p.id) === true);
  const truePositives = flagged.filter((p) => p.label === "contradict").length;
  const contradict = pairs.filter((p) => p.label === "contradict").length;
  // No flag at all is no false alarm: precision 1 by convention, and recall says the rest.
  const precision = flagged.length === 0 ? 1 : truePositives / flagged.length;
  const recall = contradict === 0 ? 1 : truePositives / contradict;
  return {
    pairs: pairs.length,
    contradict,
    flagged: flagged.length,
    truePositives,
    precision,
    recall,
    falseCompatible: flagged.filter((p) => p.label === "compatible").length,
    falseDifferent: flagged.filter((p) => p.label === "different").length,
    met: precision >= TARGETS.precision && recall >= TARGETS.recall,
  };
}
