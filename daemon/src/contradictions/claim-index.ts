/**
 * The active memories filed by the keys of their claims (claim-keys.ts), each project apart, in
 * memory: what a memory being written may contradict is a lookup of its keys in its projects, the
 * rarer keys counting for more, not a search. Holds ids and keys only (a memory's claims are read
 * again when it is judged); each project's key is held once, however many memories share it.
 */

interface Posting {
  key: string;
  ids: Set<string>;
}

interface Entry {
  project: string;
  postings: Posting[];
}

export class ClaimIndex {
  /** Each project's keys. */
  private readonly projects = new Map<string, Map<string, Posting>>();
  private readonly entries = new Map<string, Entry>();

  /** How many memories are filed. */
  get size(): number {
    return this.entries.size;
  }

  /** Files a memory under its keys, in place of what it was filed under before. */
  set(id: string, project: string, keys: Iterable<string>): void {
    this.delete(id);
    let filed = this.projects.get(project);
    if (!filed) this.projects.set(project, (filed = new Map()));
    const postings: Posting[] = [];
    for (const key of keys) {
      let posting = filed.get(key);
      if (!posting) filed.set(key, (posting = { key, ids: new Set() }));
      posting.ids.add(id);
      postings.push(posting);
    }
    if (postings.length > 0) this.entries.set(id, { project, postings });
    else if (filed.size === 0) this.projects.delete(project);
  }

  delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const filed = this.projects.get(entry.project) as Map<string, Posting>;
    for (const posting of entry.postings) {
      posting.ids.delete(id);
      if (posting.ids.size === 0) filed.delete(posting.key);
    }
    if (filed.size === 0) this.projects.delete(entry.project);
  }

  /**
   * The memories of these projects filed under enough of the keys (see lookupKeys: the evidence of
   * the keys shared adds up to 1 at least), at most `limit`, those sharing the most first: each key
   * shared counts for how rare it is (log(1 + filed / holding)). The rarest keys choose the
   * memories; once `limit` are chosen, the commoner ones only rank them (a word beside hundreds of
   * names would otherwise be read through on every write).
   */
  lookup(keys: ReadonlyMap<string, number>, projects: readonly string[], limit: number): string[] {
    const postings: [Posting, number][] = [];
    for (const project of projects) {
      const filed = this.projects.get(project);
      if (!filed) continue;
      for (const [key, evidence] of keys) {
        const posting = filed.get(key);
        if (posting) postings.push([posting, evidence]);
      }
    }
    postings.sort((a, b) => a[0].ids.size - b[0].ids.size);
    const found = new Map<string, { score: number; evidence: number }>();
    let enough = 0;
    for (const [posting, evidence] of postings) {
      const weight = Math.log(1 + this.entries.size / posting.ids.size);
      if (enough >= limit) {
        for (const [id, hit] of found) if (posting.ids.has(id)) add(hit, weight, evidence);
        continue;
      }
      for (const id of posting.ids) {
        let hit = found.get(id);
        if (!hit) found.set(id, (hit = { score: 0, evidence: 0 }));
        if (add(hit, weight, evidence)) enough += 1;
      }
    }
    return [...found]
      .filter(([, hit]) => hit.evidence >= 1)
      .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? 1 : -1))
      .slice(0, limit)
      .map(([id]) => id);
  }
}

/** Adds a shared key to a memory's hit; true when it makes the evidence enough. */
function add(hit: { score: number; evidence: number }, weight: number, evidence: number): boolean {
  const before = hit.evidence;
  hit.score += weight;
  hit.evidence += evidence;
  return before < 1 && hit.evidence >= 1;
}
