// How many arguments each signature takes, so that a call site's definition
// can be narrowed to the overloads its argument count fits.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('definitions').addColumn('min_arguments', 'integer').execute();
  await db.schema.alterTable('definitions').addColumn('max_arguments', 'integer').execute();
}
