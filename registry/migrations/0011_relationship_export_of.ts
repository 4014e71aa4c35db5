// A relationship sextant derives, beside SCIP's four: `symbol`, a module's
// default export (a CommonJS module itself, which its importers name), is an
// export of `target` as TypeScript's findReferences takes it: `target` is
// named directly in the exported expression (`make` and `getLength` of
// `export default make(getLength)`, or of `module.exports = make(getLength)`). TypeScript counts the
// uses of such an export as references and calls of `target`; one way only,
// as there: the export's own references do not take the function's (see
// src/navigation/related.ts). Rows written before have none.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, _caps: EngineCapabilities): Promise<void> {
  await db.schema
    .alterTable('relationships')
    .addColumn('is_export_of', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
