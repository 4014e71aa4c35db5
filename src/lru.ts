// A small least-recently-used cache. Registry rows are immutable once written
// (content-addressed or published), so cached values never go stale.
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private weight = 0;

  /**
   * `capacity` bounds the entries, or with `weigh` the sum of their weights
   * (a cache of lists of rows is bounded by rows, not by lists).
   */
  constructor(
    private readonly capacity: number,
    private readonly weigh?: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.weight -= this.weightOf(old);
    }
    this.map.set(key, value);
    this.weight += this.weightOf(value);
    while (this.weight > this.capacity && this.map.size > 0) {
      const [oldest, v] = this.map.entries().next().value as [K, V];
      this.map.delete(oldest);
      this.weight -= this.weightOf(v);
    }
  }

  private weightOf(value: V): number {
    return this.weigh ? this.weigh(value) : 1;
  }
}
