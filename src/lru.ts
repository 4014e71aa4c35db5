// A small least-recently-used cache. Registry rows are immutable once written
// (content-addressed or published), so cached values never go stale.
//
// A hit moves its entry to the young end of the map (a delete and a set)
// only when it has aged: when at least half the map's size in moves and
// inserts happened since it last moved. A recently moved entry is already in
// the younger half, which is evicted last, so moving it again would change
// nothing eviction sees soon; a large answer reads hundreds of entries a call
// (a stat per file, lines per file) and most of them are such hits.
interface Entry<V> {
  value: V;
  /** The cache's clock when the entry last moved to the young end. */
  moved: number;
}

export class Lru<K, V> {
  private readonly map = new Map<K, Entry<V>>();
  private weight = 0;
  /** Counts moves and inserts. */
  private clock = 0;

  /**
   * `capacity` bounds the entries, or with `weigh` the sum of their weights
   * (a cache of lists of rows is bounded by rows, not by lists).
   */
  constructor(
    private readonly capacity: number,
    private readonly weigh?: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    if (this.clock - entry.moved >= this.map.size / 2) {
      this.map.delete(key);
      this.map.set(key, entry);
      entry.moved = ++this.clock;
    }
    return entry.value;
  }

  /** Whether an insert would now evict an entry (a cache bounded by weight may still take a light one). */
  get full(): boolean {
    return this.weight >= this.capacity;
  }

  /** The value, without counting it as used. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.weight -= this.weightOf(old.value);
    }
    this.map.set(key, { value, moved: ++this.clock });
    this.weight += this.weightOf(value);
    while (this.weight > this.capacity && this.map.size > 0) {
      const [oldest, entry] = this.map.entries().next().value as [K, Entry<V>];
      this.map.delete(oldest);
      this.weight -= this.weightOf(entry.value);
    }
  }

  private weightOf(value: V): number {
    return this.weigh ? this.weigh(value) : 1;
  }
}
