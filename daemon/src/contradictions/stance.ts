/**
 * How a sentence holds a thing it names: as true ("auth is Clerk"), as the new state after a
 * change ("moved to Auth0", "the port is 5433 now"), as locally denied ("Postgres, not SQLite"),
 * or as left behind ("we dropped LaunchDarkly", "knex was removed", "from Ghost to Hugo").
 */

export type Stance = "holds" | "current" | "denied" | "left";

/** Verbs after which the things named are gone (within two words: "dropped the old LaunchDarkly"). */
const LEFT_BEFORE = new RegExp(
  String.raw`\b(?:dropped|drop|removed|remove|deleted|ditched|retired|decommissioned|killed|replaced|replace|replacing|abandoned|` +
    String.raw`stopped using|stop using|moved off|migrated off|moved away from|switched away from|got rid of|left|leaving|turned off|` +
    String.raw`switched off|disabled|banned|deprecated|sunset|cancell?ed|uninstalled|no longer (?:use|uses|using|need|needs|run|runs|call|calls|kept|used))` +
    String.raw`\s+(?:(?:the|our|all|its|their|a|an|old|legacy)\s+)*(?:(?!(?:with|for|to|by|in|on)\s)[\w.@/'’-]+\s+(?:and\s+)?){0,2}$`,
);
/** What is said of a thing after it is named that makes it gone ("... contract was cancelled", "... is no longer called"). */
const LEFT_AFTER = new RegExp(
  String.raw`^[\s"'’)]*(?:[\w.'’-]+\s+){0,3}?(?:(?:(?:was|were|is|are|has been|have been|had been|got|been)\s+)?(?:removed|deleted|dropped|gone|deprecated|decommissioned|shut down|` +
    String.raw`shutdown|cancell?ed|closed|retired|sunset|disabled|turned off|switched off|banned|killed|abandoned|uninstalled)|(?:was|were|is|are|has been|have been|got)\s+replaced|` +
    String.raw`(?:is|are|was|were)\s+no longer|(?:is|are)\s+out)\b`,
);
const ANY_MORE_AFTER = /^(?:\s+[\w.'’-]+){0,4}?\s+any ?more\b/;
const OFF_AFTER = /^\s+off\b/;
const TURNED_BEFORE = /\b(?:turned|switched|shut)\s+(?:the\s+)?$/;
/** "from X to Y": X is left when a "to" follows. */
const FROM_BEFORE = /\bfrom\s+(?:(?:the|our|a|an)\s+)?(?:[\w.@/-]+\s+)?$/;
const CHANGED_FROM_BEFORE = /\b(?:moved|moving|switched|migrated|migrating|changed|came)\s+(?:[\w.@/-]+\s+){0,3}from\s+(?:(?:the|our)\s+)?$/;
const DENIED_BEFORE = new RegExp(
  String.raw`\b(?:not|never|no|instead of|rather than|without|nor|avoid|isn't|aren't|don't|doesn't|shouldn't)\s+(?:(?:the|a|an|any|use|using|run|on|in|with|by|via|through|to)\s+){0,2}` +
    // "never npm or yarn": every member of the list is denied.
    String.raw`(?:[\w.@/-]+,?\s+(?:or|and|nor)\s+){0,2}$`,
);
const DENIED_AFTER = /^\s+(?:is|are|was|were)\s+(?:not|never)\b|^\s+(?:is|are)\s+banned\b/;
/** A change whose target follows "to", "with", "for" or "by" ("moved to Auth0", "replaced X with Vitest", "dropped X for ws"). */
const CHANGE_VERB = /\b(?:moved|moving|migrated|migrating|switched|switching|changed|changing|raised|lowered|increased|decreased|reduced|upgraded|downgraded|bumped|renamed|scaled|repartitioned|replaced|replacing|dropped|ported|converted|went|moved over)\b/;
const TARGET_BEFORE = /\b(?:to|with|for|onto|into|by)\s+(?:(?:the|a|an|our|its|plain|real|self-hosted|static|new)\s+){0,2}(?:[\w.@/-]+\s+)?$/;
const NOW = /\bnow\b|\bnowadays\b|\bthese days\b|\bcurrently\b/;
const INSTEAD_AFTER = /^\s+(?:\S+\s+){0,2}?instead\b/;

/** The stance of the span [start, end) within `sentence`, judged from the words around it. */
export function stanceAt(sentence: string, start: number, end: number): Stance {
  const lower = sentence.toLowerCase();
  const before = lower.slice(0, start);
  const after = lower.slice(end);
  if (LEFT_BEFORE.test(before) || LEFT_AFTER.test(after) || ANY_MORE_AFTER.test(after)) return "left";
  if (OFF_AFTER.test(after) && /\b(?:turned|switched|turn|switch)\b/.test(before)) return "left";
  if (TURNED_BEFORE.test(before) && OFF_AFTER.test(after)) return "left";
  if ((FROM_BEFORE.test(before) && /\bto\b/.test(after)) || CHANGED_FROM_BEFORE.test(before)) return "left";
  if (/\bno longer\b/.test(before)) return "left";
  if (DENIED_BEFORE.test(before) || DENIED_AFTER.test(after)) return "denied";
  if ((TARGET_BEFORE.test(before) && CHANGE_VERB.test(before)) || INSTEAD_AFTER.test(after) || NOW.test(lower)) return "current";
  return "holds";
}

/** Whether a text says that something changed: a change verb, "now", "no longer", "any more". */
export function saysChange(text: string): boolean {
  return /\b(?:now|no longer|any ?more|switched|moved|migrated|replaced|dropped|removed|deleted|changed|upgraded|raised|lowered|increased|decreased|renamed|instead|stopped|deprecated|decommissioned|since|after (?:the|a|an|our))\b/i.test(text);
}

/** True for the stances that assert the thing holds. */
export function asserts(stance: Stance): boolean {
  return stance === "holds" || stance === "current";
}
