/**
 * Lifecycle factors for recall ranking. Access count raises rank (popular memories are likely
 * useful) but, unlike reinforcement, never slows decay: being read is not evidence of truth.
 */

/** log2(accessCount + 1) / 10 + 1: 1 for an unread memory, about 2 after 1023 reads. */
export function frequencyBoost(accessCount: number): number {
  return Math.log2(Math.max(0, accessCount) + 1) / 10 + 1;
}

/** 0.5 + 0.5 × confidence: a guess ranks at half the weight of a certainty. */
export function confidenceBoost(confidence: number): number {
  return 0.5 + 0.5 * confidence;
}

export interface LifecycleScoreInputs {
  decayWeight: number;
  accessCount: number;
  confidence: number;
}

/** decay weight × frequency boost × confidence boost; the ranker multiplies relevance by it. */
export function lifecycleScore(inputs: LifecycleScoreInputs): number {
  return inputs.decayWeight * frequencyBoost(inputs.accessCount) * confidenceBoost(inputs.confidence);
}
