// Symbols of a package that has no name. scip-typescript names a symbol by
// the package.json nearest its file, and by the file's path from there: a
// package.json without a name and version (`{"type": "commonjs"}` in
// dist/cjs of a dual build, beside `{"type": "module"}` in dist/esm) gives
// `scip-typescript npm . . qp/`index.js`/encode().`, so the files of two such
// packages at the same path from each (dist/cjs/qp/index.js and
// dist/esm/qp/index.js) share every symbol, and each answered with the
// other's definitions, references and callers (nodemailer 10.6.1's dist:
// definitions' precision against TypeScript 0.57). Their symbols are given
// the path from the repository's root instead, the package's directory
// first, which the document's own module symbol tells.
import { SymbolRole, type ScipDocument } from '../scip/schema.js';
import { descriptorName, parseSymbol } from '../scip/symbol.js';

const NAMELESS = 'scip-typescript npm . . ';

/**
 * Rewrites, in place, a document's symbols of a nameless package in a
 * directory below the repository's root (`dist/esm/`) to start from the
 * root. A symbol of another nameless package its file reaches (a relative
 * import out of its own package) would be taken for one of its own: such
 * imports between sibling builds are not made.
 */
export function rootNamelessPackage(document: ScipDocument): void {
  const directory = packageDirectory(document);
  if (!directory) return;
  const prefix =
    NAMELESS +
    directory
      .split('/')
      .map((segment) => `${descriptorName(segment)}/`)
      .join('');
  const rooted = (symbol: string) => (symbol.startsWith(NAMELESS) ? prefix + symbol.slice(NAMELESS.length) : symbol);
  for (const o of document.occurrences) o.symbol = rooted(o.symbol);
  for (const info of document.symbols) {
    info.symbol = rooted(info.symbol);
    info.enclosingSymbol = rooted(info.enclosingSymbol);
    for (const r of info.relationships) r.symbol = rooted(r.symbol);
  }
}

/** The directory of the nameless package a document's file is in (`dist/esm`), where it is not the root. */
function packageDirectory(document: ScipDocument): string | undefined {
  const path = document.relativePath;
  for (const o of document.occurrences) {
    // The file's module is defined at its start: `scip-typescript npm . . qp/`index.js`/`.
    if (!(o.symbolRoles & SymbolRole.Definition) || !o.symbol.startsWith(NAMELESS) || !o.symbol.endsWith('/')) continue;
    let written: string;
    try {
      const parsed = parseSymbol(o.symbol);
      if (!parsed.descriptors.every((d) => d.suffix === 'namespace')) continue;
      written = parsed.descriptors.map((d) => d.name).join('/');
    } catch {
      continue;
    }
    if (path.length > written.length && path.endsWith(`/${written}`)) return path.slice(0, path.length - written.length - 1);
    return undefined;
  }
  return undefined;
}
