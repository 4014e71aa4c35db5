// Definitions say whether they hold code that calls (functions, methods,
// variables holding functions), which call hierarchies need to find callers.
// Rows from before are re-derived when their repository is indexed again
// (the derivation version changed); until then they count as not callable.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Development builds briefly created this column in 0001; such registries have it already.
  const definitions = (await db.introspection.getTables()).find((t) => t.name === 'definitions');
  if (definitions?.columns.some((c) => c.name === 'callable')) return;
  await db.schema
    .alterTable('definitions')
    .addColumn('callable', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
