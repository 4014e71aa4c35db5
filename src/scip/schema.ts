// The SCIP messages sextant reads, as decoded by src/scip/decode.ts (field
// names are protobufjs's camelCase forms of the proto names), and the
// constants of the format. Kept apart from the decoder so that readers of the
// registry do not load protobufjs.

export interface ScipToolInfo {
  name: string;
  version: string;
  arguments: string[];
}

export interface ScipMetadata {
  version: number;
  toolInfo?: ScipToolInfo | null;
  projectRoot: string;
  textDocumentEncoding: number;
}

export interface ScipRelationship {
  symbol: string;
  isReference: boolean;
  isImplementation: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
}

export interface ScipSymbolInformation {
  symbol: string;
  documentation: string[];
  relationships: ScipRelationship[];
  kind: number;
  displayName: string;
  enclosingSymbol: string;
}

export interface ScipOccurrence {
  range: number[];
  symbol: string;
  symbolRoles: number;
  syntaxKind: number;
  enclosingRange: number[];
}

export interface ScipDocument {
  relativePath: string;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInformation[];
  language: string;
  text: string;
  positionEncoding: number;
}

/** Document.position_encoding values. */
export const PositionEncoding = {
  Unspecified: 0,
  Utf8: 1,
  Utf16: 2,
  Utf32: 3,
} as const;

/** Occurrence.symbol_roles bits. */
export const SymbolRole = {
  Definition: 0x1,
  Import: 0x2,
  WriteAccess: 0x4,
  ReadAccess: 0x8,
  Generated: 0x10,
  Test: 0x20,
  ForwardDefinition: 0x40,
} as const;

/** Top-level field numbers of the Index message. */
export const IndexField = { metadata: 1, documents: 2, externalSymbols: 3 } as const;
