// Every migration of the registry, in order. Names are never reused or
// renamed: a registry records the names it has applied.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';
import * as initial from './0001_initial.js';
import * as definitionCallable from './0002_definition_callable.js';
import * as definitionArguments from './0003_definition_arguments.js';
import * as searchIndex from './0004_search_index.js';
import * as syntacticDefinitions from './0005_syntactic_definitions.js';
import * as indexJobs from './0006_index_jobs.js';
import * as watchers from './0007_watchers.js';
import * as lockLeases from './0008_lock_leases.js';
import * as uploads from './0009_uploads.js';
import * as rowLeases from './0010_row_leases.js';
import * as relationshipExportOf from './0011_relationship_export_of.js';
import * as searchIndexWithoutPositions from './0012_search_index_without_positions.js';

export interface RegistryMigration {
  up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void>;
}

export const migrations: Record<string, RegistryMigration> = {
  '0001_initial': initial,
  '0002_definition_callable': definitionCallable,
  '0003_definition_arguments': definitionArguments,
  '0004_search_index': searchIndex,
  '0005_syntactic_definitions': syntacticDefinitions,
  '0006_index_jobs': indexJobs,
  '0007_watchers': watchers,
  '0008_lock_leases': lockLeases,
  '0009_uploads': uploads,
  '0010_row_leases': rowLeases,
  '0011_relationship_export_of': relationshipExportOf,
  '0012_search_index_without_positions': searchIndexWithoutPositions,
};
