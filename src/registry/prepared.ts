// Queries built and compiled by kysely once per shape, then run with new
// values. A warm lookup reads a few rows through an index, which SQLite does
// faster than kysely builds and compiles the query; a call hierarchy runs
// hundreds of such lookups. The SQL stays kysely's, for every engine.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { Lru } from '../lru.js';

/** A stand-in for the i-th value, found again among the compiled query's parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Template {
  sql: string;
  /** The compiled parameters: stand-ins for the values, and the query's own constants. */
  parameters: readonly unknown[];
}

/**
 * A list for an `in (…)` of a prepared query, padded with its last value to
 * the next power of two: a shape is compiled per list length, and lengths
 * that vary with each answer (the symbols at a position, their relatives)
 * made a first answer pay a new query's compile, about a millisecond, every
 * few positions. `in` reads a repeated value as one. Empty stays empty.
 */
export function padded<T>(values: readonly T[]): T[] {
  if (values.length === 0) return [];
  let size = 1;
  while (size < values.length) size *= 2;
  return [...values, ...Array<T>(size - values.length).fill(values[values.length - 1]!)];
}

export class PreparedQueries {
  private readonly templates = new Lru<string, Template>(256);

  constructor(private readonly db: Kysely<any>) {}

  /**
   * The rows of the query `build` makes, for these values. `build` gets one
   * stand-in per value and must put each where its value goes (a list as a
   * list of stand-ins); `shape` names everything else that varies (list
   * lengths among it), since one shape is compiled only once.
   */
  async rows<R>(shape: string, values: readonly unknown[], build: (slots: never[]) => Compilable<R>): Promise<R[]> {
    let template = this.templates.get(shape);
    if (!template) {
      const slots = values.map((_, i) => new Slot(i));
      const compiled = build(slots as never[]).compile();
      if (slots.some((s) => !compiled.parameters.includes(s))) throw new Error(`query ${shape}: a value did not become a parameter`);
      template = { sql: compiled.sql, parameters: compiled.parameters };
      this.templates.set(shape, template);
    }
    const parameters = template.parameters.map((p) => (p instanceof Slot ? values[p.index] : p));
    return (await this.db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters))).rows;
  }

  /**
   * `rows` for a query whose values are lists, each for an `in (…)`: `build`
   * gets one list of stand-ins per list, each `padded`, so that one shape
   * serves every length up to the next power of two.
   */
  rowsIn<R>(shape: string, lists: readonly (readonly unknown[])[], build: (slots: never[][]) => Compilable<R>): Promise<R[]> {
    const paddedLists = lists.map(padded);
    return this.rows(`${shape}:${paddedLists.map((l) => l.length).join(':')}`, paddedLists.flat(), (slots) => {
      let at = 0;
      return build(paddedLists.map((l) => slots.slice(at, (at += l.length))));
    });
  }
}
