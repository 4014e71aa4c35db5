// The search layer: code search, file search and the registry's status. One
// object every adapter (MCP, CLI) asks; no query logic lives in an adapter.
import type { Engine } from '../registry/engine.js';
import type * as CountFiles from '../protocol/count-files.js';
import type * as FindFiles from '../protocol/find-files.js';
import type * as RegistryStatus from '../protocol/registry-status.js';
import type * as SearchCode from '../protocol/search-code.js';
import { ownWorktreeFiles, searchCode, type WorktreeFilesOf } from './code.js';
import { countFiles, findFiles } from './files.js';
import { registryStatus } from './registry-status.js';

export class Search {
  constructor(
    readonly engine: Engine,
    private readonly version: string,
    /** Where searches find worktree files' states (searchCode follows edits made since the index). */
    private readonly worktreeFiles: WorktreeFilesOf = ownWorktreeFiles(),
  ) {}

  searchCode(params: SearchCode.Params): Promise<SearchCode.Result> {
    return searchCode(this.engine, params, undefined, this.worktreeFiles);
  }

  findFiles(params: FindFiles.Params): Promise<FindFiles.Result> {
    return findFiles(this.engine, params);
  }

  countFiles(params: CountFiles.Params): Promise<CountFiles.Result> {
    return countFiles(this.engine, params);
  }

  registryStatus(): Promise<RegistryStatus.Result> {
    return registryStatus(this.engine, this.version);
  }
}
