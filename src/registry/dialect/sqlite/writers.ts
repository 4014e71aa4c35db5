// Writers and garbage collection on SQLite: one writing transaction at a time
// on one machine, so collection checks in its own transaction that no run
// holds a repository's write lock (a run's rows are not referenced by an
// index until it publishes). Runs need no hold of their own.
import type { WriterCoordination } from '../../engine.js';

export function sqliteWriters(): WriterCoordination {
  return {
    async hold() {
      return async () => {};
    },
    async mayCollect(trx) {
      return (await trx.selectFrom('locks').select('repo_id').executeTakeFirst()) === undefined;
    },
  };
}
