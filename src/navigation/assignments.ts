// A Python variable is declared by each of its assignments: pyright's
// goToDefinition lists every one (`rv = a` and `rv = b` in two branches, `t //=
// 60`, a `for` target, `self.x = ...` in each method), and each `def` of a
// function defined once per branch, where scip-python defines the name at its
// first and counts the others as references. The syntax facts mark assignments
// as writes, so the definition's own document names them. An attribute with an
// annotated declaration (`x: int` in the class, `self.x: int = 0`) is declared
// there alone, as pyright answers for a member whose type is declared.
import { languageOf } from '../languages.js';
import { RefKindCode } from '../registry/payload.js';
import { SymbolRole } from '../scip/schema.js';
import type { DefinitionRow, Lookups } from '../registry/lookups.js';

/** After a `del` (`del x`, `del self.a, b`): a write of the syntax facts that declares nothing. */
const DELETED = /\bdel\s[^=]*$/;
/** Before the name of a function or class statement. */
const DEF_STATEMENT = /\b(?:def|class)\s+$/;
/** Before an attribute's name. */
const ATTRIBUTE = /\.\s*$/;
/** After a name: a type annotation (`x: int`), not a walrus (`x := 1`). */
const ANNOTATED = /^\s*:(?!=)/;
/** A member of a class (`pkg/mod/A#x.`): its last descriptor is a term of a type. */
const MEMBER = /#[^#/]*\.$/;
/** Only what a method assigns through its own instance or class declares a member. */
const OWN_MEMBER = /(?:^|[^\w.])(?:self|cls)\s*\.\s*$/;

/** The assignments declaring each Python definition of `rows`, in its document, as definitions; rows of other languages stay as they are. */
export async function withAssignments(lookups: Lookups, rows: readonly DefinitionRow[]): Promise<DefinitionRow[]> {
  if (!rows.some((d) => languageOf(d.path) === 'python')) return [...rows];
  const out: DefinitionRow[] = [];
  // Rows of one symbol in one document (an overload group's) share its assignments: they are added once.
  const scanned = new Set<string>();
  for (const row of rows) {
    const key = `${row.document_id} ${row.symbol}`;
    if (languageOf(row.path) !== 'python' || scanned.has(key)) {
      out.push(row);
      continue;
    }
    scanned.add(key);
    const doc = await lookups.document(row.document_id);
    const symbol = doc.symbols.indexOf(row.symbol);
    const lines = await lookups.lines(row.blob_sha);
    const declarations = [row];
    const occ = doc.occurrences;
    for (let i = 0; symbol >= 0 && i < occ.length; i++) {
      // A definition of the index is a row of its own (an overload's `def`), or left out on purpose (narrowed overloads).
      if (occ.symbol(i) !== symbol || occ.roles(i) & SymbolRole.Definition) continue;
      const [line, start, endLine, end] = occ.range(i);
      if (line === row.start_line && start === row.start_char) continue;
      const before = lines?.[line]?.slice(0, start) ?? '';
      const declares =
        occ.refKind(i) === RefKindCode.write
          ? !DELETED.test(before) && (!ATTRIBUTE.test(before) || OWN_MEMBER.test(before))
          : DEF_STATEMENT.test(before);
      if (!declares) continue;
      declarations.push({
        ...row,
        start_line: line,
        start_char: start,
        end_line: endLine,
        end_char: end,
        enclosing_start_line: null,
        enclosing_start_char: null,
        enclosing_end_line: null,
        enclosing_end_char: null,
        enclosing_source: null,
      });
    }
    const annotated = MEMBER.test(row.symbol)
      ? declarations.filter((d) => ANNOTATED.test(lines?.[d.end_line]?.slice(d.end_char) ?? ''))
      : [];
    out.push(...(annotated.length ? annotated : declarations));
  }
  return out;
}
