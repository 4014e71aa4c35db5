// Symbols of packages that have no name. scip-typescript names a symbol by
// the package.json nearest its file, and by the file's path from there: a
// package.json without a name and version (`{"type": "commonjs"}` in
// dist/cjs of a dual build, beside `{"type": "module"}` in dist/esm) gives
// `scip-typescript npm . . qp/`index.js`/encode().`, so the files of two such
// packages at the same path from each (dist/cjs/qp/index.js and
// dist/esm/qp/index.js) share every symbol, and each answered with the
// other's definitions, references and callers (nodemailer 10.6.1's dist:
// definitions' precision against TypeScript 0.57). Such a symbol is given
// the path from the repository's root instead, its package's directory
// first, in every document that names it (one outside the package too).
import { SymbolRole, type ScipDocument } from '../scip/schema.js';
import { descriptorName, parseSymbol } from '../scip/symbol.js';

const NAMELESS = 'scip-typescript npm . . ';

/**
 * The directories of a commit's packages (each holding a package.json), and
 * which one a nameless package's file is in: the one holding a file at the
 * path the symbol gives; of several (sibling builds), the asking document's
 * own; otherwise none can be told, and the symbol is left as it is.
 */
export class PackageRoots {
  private directories: string[] | undefined;
  private readonly files = new Set<string>();
  private readonly modulePaths = new Map<string, string | null>();

  /** `paths`: the commit's files, read at the first document that names a nameless package (most never do). */
  constructor(private readonly paths: () => Iterable<string>) {}

  private packageDirectories(): string[] {
    if (this.directories) return this.directories;
    this.directories = [];
    for (const path of this.paths()) {
      this.files.add(path);
      if (path === 'package.json' || path.endsWith('/package.json')) this.directories.push(path.slice(0, -'package.json'.length));
    }
    return this.directories;
  }

  /**
   * For each module path of a nameless package a document names
   * (`qp/index.js`), the directory it is in (`dist/esm/`), where that is not
   * the root: what rootNamelessPackages rewrites, and what the document's
   * derivation depends on beside its bytes.
   */
  private of(document: ScipDocument): Map<string, string> {
    const out = new Map<string, string>();
    if (!document.occurrences.some((o) => o.symbol.startsWith(NAMELESS))) return out;
    const directories = this.packageDirectories();
    if (directories.length < 2) return out;
    const own = ownDirectory(document);
    for (const o of document.occurrences) {
      if (!o.symbol.startsWith(NAMELESS)) continue;
      const path = this.modulePath(o.symbol);
      if (path === undefined || out.has(path)) continue;
      const holding = directories.filter((d) => this.files.has(d + path));
      const directory = holding.length === 1 ? holding[0] : own !== undefined && holding.includes(own) ? own : undefined;
      if (directory) out.set(path, directory);
    }
    return out;
  }

  /**
   * Gives the document's symbols of nameless packages the path from the
   * repository's root, in place, and returns what of() found, which they
   * were rewritten by.
   */
  root(document: ScipDocument): Map<string, string> {
    const roots = this.of(document);
    rootNamelessPackages(document, roots, (symbol) => this.modulePath(symbol));
    return roots;
  }

  /** The module path a nameless package's symbol starts with (`qp/index.js`), remembered per symbol. */
  private modulePath(symbol: string): string | undefined {
    let path = this.modulePaths.get(symbol);
    if (path === undefined) {
      path = modulePathOf(symbol) ?? null;
      this.modulePaths.set(symbol, path);
    }
    return path ?? undefined;
  }
}

/** Rewrites, in place, a document's symbols of nameless packages by `roots` (PackageRoots.of). */
function rootNamelessPackages(
  document: ScipDocument,
  roots: ReadonlyMap<string, string>,
  modulePath: (symbol: string) => string | undefined,
): void {
  if (roots.size === 0) return;
  const prefixes = new Map<string, string>();
  for (const [path, directory] of roots) {
    const descriptors = directory
      .split('/')
      .filter(Boolean)
      .map((segment) => `${descriptorName(segment)}/`);
    prefixes.set(path, NAMELESS + descriptors.join(''));
  }
  const done = new Map<string, string>();
  const rooted = (symbol: string) => {
    if (!symbol.startsWith(NAMELESS)) return symbol;
    let out = done.get(symbol);
    if (out === undefined) {
      const prefix = prefixes.get(modulePath(symbol) ?? '');
      out = prefix ? prefix + symbol.slice(NAMELESS.length) : symbol;
      done.set(symbol, out);
    }
    return out;
  };
  for (const o of document.occurrences) o.symbol = rooted(o.symbol);
  for (const info of document.symbols) {
    info.symbol = rooted(info.symbol);
    info.enclosingSymbol = rooted(info.enclosingSymbol);
    for (const r of info.relationships) r.symbol = rooted(r.symbol);
  }
}

/** The path of the file a symbol's leading namespace descriptors name (`qp/index.js`): up to the one with an extension. */
function modulePathOf(symbol: string): string | undefined {
  let descriptors;
  try {
    descriptors = parseSymbol(symbol).descriptors;
  } catch {
    return undefined;
  }
  const names: string[] = [];
  for (const d of descriptors) {
    if (d.suffix !== 'namespace') break;
    names.push(d.name);
    if (/\.[cm]?[jt]sx?$/.test(d.name)) return names.join('/');
  }
  return undefined;
}

/** The directory of the nameless package holding the document's file (its module is defined at the file's start), or undefined. */
function ownDirectory(document: ScipDocument): string | undefined {
  const path = document.relativePath;
  for (const o of document.occurrences) {
    if (!(o.symbolRoles & SymbolRole.Definition) || !o.symbol.startsWith(NAMELESS) || !o.symbol.endsWith('/')) continue;
    const written = modulePathOf(o.symbol);
    if (written !== undefined && (path === written || path.endsWith(`/${written}`))) return path.slice(0, path.length - written.length);
  }
  return undefined;
}
