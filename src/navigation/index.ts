// The query layer: one object every adapter (MCP, CLI, LSP) asks. Adapters
// validate input against src/protocol and shape output; no query logic lives
// in them.
import type { Engine } from '../registry/engine.js';
import { Lookups } from '../registry/lookups.js';
import type * as Definition from '../protocol/definition.js';
import type * as References from '../protocol/references.js';
import type * as DocumentSymbols from '../protocol/document-symbols.js';
import type * as IndexStatus from '../protocol/index-status.js';
import type * as CallHierarchy from '../protocol/call-hierarchy.js';
import type * as TypeHierarchy from '../protocol/type-hierarchy.js';
import type * as WorkspaceSymbols from '../protocol/workspace-symbols.js';
import { callHierarchy } from './call-hierarchy.js';
import { typeHierarchy } from './type-hierarchy.js';
import { SymbolTables, workspaceSymbols } from './workspace-symbols.js';
import { goToDefinition } from './definitions.js';
import { findReferences } from './references.js';
import { documentSymbols } from './document-symbols.js';
import { indexStatus } from './status.js';
import type * as SrcIndexStatus from '../protocol/src-index-status.js';
import { srcIndexStatus } from './src-index-status.js';

export class Navigation {
  readonly lookups: Lookups;
  private readonly symbolTables: SymbolTables;

  constructor(readonly engine: Engine) {
    this.lookups = new Lookups(engine.db);
    this.symbolTables = new SymbolTables(this.lookups);
  }

  getIndexStatus(params: IndexStatus.Params): Promise<IndexStatus.Result> {
    return indexStatus(this.engine, this.lookups, params);
  }

  /** SRC's get_index_status for the repository containing a directory; `cwd` resolves a relative one. */
  srcIndexStatus(params: SrcIndexStatus.Params, cwd: string): Promise<SrcIndexStatus.Result> {
    return srcIndexStatus(this.engine, this.lookups, params, cwd);
  }

  goToDefinition(params: Definition.Params): Promise<Definition.Result> {
    return goToDefinition(this.lookups, params);
  }

  findReferences(params: References.Params): Promise<References.Result> {
    return findReferences(this.lookups, params);
  }

  documentSymbols(params: DocumentSymbols.Params): Promise<DocumentSymbols.Result> {
    return documentSymbols(this.lookups, params);
  }

  workspaceSymbols(params: WorkspaceSymbols.Params): Promise<WorkspaceSymbols.Result> {
    return workspaceSymbols(this.lookups, this.symbolTables, params);
  }

  callHierarchy(params: CallHierarchy.Params): Promise<CallHierarchy.Result> {
    return callHierarchy(this.lookups, params);
  }

  typeHierarchy(params: TypeHierarchy.Params): Promise<TypeHierarchy.Result> {
    return typeHierarchy(this.lookups, params);
  }
}
