// Symbol kinds as lowercase words. Indexers often leave SymbolInformation.kind
// empty, so the kind is derived from the descriptor suffix and refined by the
// signature the indexer put in the documentation.
import type { ScipSymbolInformation } from './schema.js';
import { isObjectTypeName, type ParsedSymbol } from './symbol.js';

export const SYMBOL_KINDS = [
  'class',
  'interface',
  'struct',
  'trait',
  'enum',
  'enum_member',
  'type',
  'type_parameter',
  'function',
  'method',
  'constructor',
  'property',
  'field',
  'variable',
  'constant',
  'parameter',
  'module',
  'namespace',
  'macro',
  'unknown',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** The kinds that are functions by nature (TypeScript's isFunctionLike among them): called, and overloaded. */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set<SymbolKind>(['function', 'method', 'constructor']);

/** SymbolInformation.Kind values of scip.proto that map onto our words. */
const SCIP_KIND: Record<number, SymbolKind> = {
  7: 'class',
  8: 'constant',
  9: 'constructor',
  11: 'enum',
  12: 'enum_member',
  15: 'field',
  17: 'function',
  21: 'interface',
  26: 'method',
  29: 'module',
  30: 'namespace',
  37: 'parameter',
  41: 'property',
  49: 'struct',
  53: 'trait',
  55: 'type',
  58: 'type_parameter',
  61: 'variable',
  66: 'method',
};

/** The first code block of the documentation, which indexers use for the signature. */
export function signatureOf(info: ScipSymbolInformation | undefined): string | undefined {
  const first = info?.documentation[0];
  if (!first) return undefined;
  const fenced = /^```[\w-]*\n([\s\S]*?)\n?```\s*$/.exec(first);
  return (fenced ? fenced[1]! : first).trim() || undefined;
}

/**
 * The signature sextant gives a name imported from a module the indexer
 * could not resolve (orchestrator/prepare-exports.ts, defineUnresolvedImports),
 * whose kind is unknown: the module as written, `from 'redux'`.
 */
export function unresolvedImportSignature(module: string): string {
  return `from ${module}`;
}

/** The module of such an import's definition (`'redux'`); undefined for any other definition. */
export function unresolvedImportModule(d: { kind: string; signature: string | null }): string | undefined {
  return d.kind === 'unknown' && d.signature?.startsWith('from ') ? d.signature.slice('from '.length) : undefined;
}

export function symbolKind(parsed: ParsedSymbol, info: ScipSymbolInformation | undefined, signature: string | undefined): SymbolKind {
  const declared = info?.kind ? SCIP_KIND[info.kind] : undefined;
  if (declared) return declared;
  const said = signature ? kindFromSignature(signature) : undefined;
  // A local symbol has no descriptor to go by: only its signature tells.
  if (parsed.local) return said ?? 'variable';
  const descriptors = parsed.descriptors;
  const last = descriptors[descriptors.length - 1]!;
  // An object type written in a declaration (`type T = { m(): void } & U`) is, to TypeScript, a type its members belong to.
  const owner = descriptors[descriptors.length - 2];
  const ownerIsType = owner?.suffix === 'type' || (owner?.suffix === 'meta' && isObjectTypeName(owner.name));
  switch (last.suffix) {
    case 'namespace':
      // A module declared by its specifier (`declare module '../../'`, an
      // augmentation) shows the signature of what the module exports (a
      // function, for pino's `export = pino`): it declares a module all the
      // same, which no one calls. (A namespace merged with a function keeps
      // the function's kind: TypeScript's call hierarchy names a call of the
      // function by the namespace, its first declaration.)
      if (/^['"]/.test(last.name)) return 'module';
      return said === 'module' || !said ? 'module' : said;
    case 'meta':
      // scip-python names a module `pkg/__init__:`; scip-typescript names the
      // properties of object literals `name0:`.
      if (last.name === '__init__') return 'module';
      return said ?? 'unknown';
    case 'type':
      // The suffix says "a type"; the signature says which.
      return said === 'interface' || said === 'type' || said === 'enum' ? said : 'class';
    case 'method':
      if (last.name === '<constructor>' || last.name === '__init__') return 'constructor';
      return ownerIsType ? 'method' : 'function';
    case 'term':
      if (said === 'enum_member' || said === 'method' || said === 'property') return said;
      if (ownerIsType) return 'property';
      return said === 'constant' || said === 'function' || said === 'module' ? said : 'variable';
    case 'parameter':
      return 'parameter';
    case 'type-parameter':
      return 'type_parameter';
    case 'macro':
      return 'macro';
  }
}

/** Reads the declaration keyword of a TypeScript quick-info or Python signature. */
function kindFromSignature(signature: string): SymbolKind | undefined {
  const paren = /^\((\w[\w ]*)\)/.exec(signature);
  if (paren) {
    switch (paren[1]) {
      case 'method':
        return 'method';
      case 'property':
      case 'getter':
      case 'setter':
      case 'accessor':
        return 'property';
      case 'parameter':
        return 'parameter';
      case 'enum member':
        return 'enum_member';
      case 'module':
        return 'module';
      case 'type parameter':
        return 'type_parameter';
      case 'function':
      case 'local function':
        return 'function';
      case 'local var':
      case 'var':
      case 'let':
        return 'variable';
      case 'const':
        return 'constant';
      case 'constructor':
        return 'constructor';
      default:
        return undefined;
    }
  }
  // An accessor of an object literal, which scip-typescript names locally: `get value: number`.
  if (/^(?:static\s+)?[gs]et\s+[^\s(:]+\s*:/.test(signature)) return 'property';
  const word = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(\w+)/.exec(signature)?.[1];
  switch (word) {
    case 'class':
      return 'class';
    case 'interface':
      return 'interface';
    case 'type':
      return 'type';
    case 'enum':
      return 'enum';
    case 'function':
    case 'def':
      return 'function';
    case 'constructor':
      return 'constructor';
    case 'const':
      return 'constant';
    case 'let':
    case 'var':
      return 'variable';
    case 'module':
    case 'namespace':
      return 'module';
    default:
      return undefined;
  }
}
