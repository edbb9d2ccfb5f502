/**
 * The active memories filed by the keys of their claims (claim-keys.ts), each project apart, in
 * memory: what a memory being written may contradict is a lookup of its keys in its projects, the
 * rarer keys counting for more, not a search. Holds ids and keys only (a memory's claims are read
 * again when it is judged). Memories and keys are numbered, each id and key string held once
 * (every memory naming a key brings its own copy of the string), and a project's key names its
 * memories by number (see Members), where a Set of id strings per key and an object per filing
 * took more (7.0 MB against 4.5 for the keys of 10k synthetic memories, 36 against 31 at 100k).
 */
import { sortedPosition } from "../sorted-position.js";

/**
 * The memories filed under a key in a project: the number of the one memory (most keys name a
 * single memory: no array for it), or the numbers of two or more in ascending order, held exactly
 * while few (an array grown by push keeps room for 16 more).
 */
type Members = number | number[];
/** Below this many members, a key's array is copied to its exact size when one joins; from it, it grows in place. */
const EXACT_MEMBERS = 16;

export class ClaimIndex {
  /** Each memory's number, and each number's id (undefined: free, listed in freeMemories). */
  private readonly memoryNumbers = new Map<string, number>();
  private readonly ids: (string | undefined)[] = [];
  private readonly freeMemories: number[] = [];
  /** Per memory number: its project's number and its keys' numbers. */
  private readonly projectOf: number[] = [];
  private readonly keysOf: (readonly number[] | undefined)[] = [];
  /** Each key's number, each number's key, and how many projects file memories under it (0: free). */
  private readonly keyNumbers = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly keyUses: number[] = [];
  private readonly freeKeys: number[] = [];
  private readonly projectNumbers = new Map<string, number>();
  /** Per project number, the memories filed under each key, by key number. */
  private readonly filed: Map<number, Members>[] = [];
  private filedCount = 0;

  /** How many memories are filed. */
  get size(): number {
    return this.filedCount;
  }

  /** Files a memory under its keys, in place of what it was filed under before. */
  set(id: string, project: string, keys: Iterable<string>): void {
    this.delete(id);
    const numbers = [...new Set(keys)].map((key) => this.keyNumber(key));
    if (numbers.length === 0) return;
    const memory = this.memoryNumber(id);
    const projectNumber = this.projectNumber(project);
    const filed = this.filed[projectNumber] as Map<number, Members>;
    for (const key of numbers) {
      const members = filed.get(key);
      if (members === undefined) this.keyUses[key] = (this.keyUses[key] as number) + 1;
      filed.set(key, withMember(members, memory));
    }
    this.projectOf[memory] = projectNumber;
    this.keysOf[memory] = numbers;
    this.filedCount += 1;
  }

  delete(id: string): void {
    const memory = this.memoryNumbers.get(id);
    if (memory === undefined) return;
    const filed = this.filed[this.projectOf[memory] as number] as Map<number, Members>;
    for (const key of this.keysOf[memory] as number[]) {
      const members = withoutMember(filed.get(key) as Members, memory);
      if (members !== undefined) {
        filed.set(key, members);
        continue;
      }
      filed.delete(key);
      this.keyUses[key] = (this.keyUses[key] as number) - 1;
      if (this.keyUses[key] === 0) this.freeKey(key);
    }
    this.memoryNumbers.delete(id);
    this.ids[memory] = undefined;
    this.keysOf[memory] = undefined;
    this.freeMemories.push(memory);
    this.filedCount -= 1;
  }

  /**
   * The memories of these projects filed under enough of the keys (see lookupKeys: the evidence of
   * the keys shared adds up to 1 at least), at most `limit`, those sharing the most first: each key
   * shared counts for how rare it is (log(1 + filed / holding)). The rarest keys choose the
   * memories; once `limit` are chosen, the commoner ones only rank them (a word beside hundreds of
   * names would otherwise be read through on every write).
   */
  lookup(keys: ReadonlyMap<string, number>, projects: readonly string[], limit: number): string[] {
    const postings: [readonly number[], number][] = [];
    for (const project of projects) {
      const projectNumber = this.projectNumbers.get(project);
      if (projectNumber === undefined) continue;
      const filed = this.filed[projectNumber] as Map<number, Members>;
      for (const [key, evidence] of keys) {
        const keyNumber = this.keyNumbers.get(key);
        const members = keyNumber === undefined ? undefined : filed.get(keyNumber);
        if (members !== undefined) postings.push([typeof members === "number" ? [members] : members, evidence]);
      }
    }
    postings.sort((a, b) => a[0].length - b[0].length);
    const found = new Map<number, { score: number; evidence: number }>();
    let enough = 0;
    for (const [members, evidence] of postings) {
      const weight = Math.log(1 + this.filedCount / members.length);
      if (enough >= limit) {
        for (const [memory, hit] of found) if (members[sortedPosition(members, memory)] === memory) add(hit, weight, evidence);
        continue;
      }
      for (const memory of members) {
        let hit = found.get(memory);
        if (!hit) found.set(memory, (hit = { score: 0, evidence: 0 }));
        if (add(hit, weight, evidence)) enough += 1;
      }
    }
    return [...found]
      .filter(([, hit]) => hit.evidence >= 1)
      .map(([memory, hit]) => [this.ids[memory] as string, hit] as const)
      .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? 1 : -1))
      .slice(0, limit)
      .map(([id]) => id);
  }

  private memoryNumber(id: string): number {
    const memory = this.freeMemories.pop() ?? this.ids.length;
    this.memoryNumbers.set(id, memory);
    this.ids[memory] = id;
    return memory;
  }

  private keyNumber(key: string): number {
    let number = this.keyNumbers.get(key);
    if (number === undefined) {
      number = this.freeKeys.pop() ?? this.keys.length;
      this.keyNumbers.set(key, number);
      this.keys[number] = key;
      this.keyUses[number] = 0;
    }
    return number;
  }

  /** Forgets a key no project files anything under, so that its number is given to the next new key. */
  private freeKey(key: number): void {
    this.keyNumbers.delete(this.keys[key] as string);
    this.keys[key] = "";
    this.freeKeys.push(key);
  }

  private projectNumber(project: string): number {
    let number = this.projectNumbers.get(project);
    if (number === undefined) {
      number = this.filed.push(new Map()) - 1;
      this.projectNumbers.set(project, number);
    }
    return number;
  }
}

/** Adds a shared key to a memory's hit; true when it makes the evidence enough. */
function add(hit: { score: number; evidence: number }, weight: number, evidence: number): boolean {
  const before = hit.evidence;
  hit.score += weight;
  hit.evidence += evidence;
  return before < 1 && hit.evidence >= 1;
}

/** The members with `member` among them (it is not among them yet). */
function withMember(members: Members | undefined, member: number): Members {
  if (members === undefined) return member;
  if (typeof members === "number") return members < member ? [members, member] : [member, members];
  const at = sortedPosition(members, member);
  if (members.length < EXACT_MEMBERS) return members.toSpliced(at, 0, member);
  members.splice(at, 0, member);
  return members;
}

/** The members without `member` (it is among them); undefined when none is left. */
function withoutMember(members: Members, member: number): Members | undefined {
  if (typeof members === "number") return undefined;
  members.splice(sortedPosition(members, member), 1);
  return members.length === 1 ? members[0] : members;
}
