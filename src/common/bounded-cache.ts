/**
 * The one kind of cache lspq keeps: bounded in entries (the least recently
 * used go first) and, when given, in age. Owned by the pool whose lifetime
 * it shares (the daemon's, or one --no-daemon command's), never a module.
 */
/** Drops a Map's first key, the one set longest ago (a Map keeps the order keys were set in). */
export function dropOldest<K, V>(map: Map<K, V>): void {
  for (const key of map.keys()) {
    map.delete(key);
    return;
  }
}

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();

  constructor(
    private readonly maxEntries: number,
    /** Entries older than this are not answered: what they remember may have changed. */
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at >= this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-inserted: the map's order is the order of last use.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V): V {
    this.entries.delete(key);
    this.entries.set(key, { value, at: Date.now() });
    if (this.entries.size > this.maxEntries) dropOldest(this.entries);
    return value;
  }

  /** Forgets everything (what it remembered was just changed by lspq itself). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
