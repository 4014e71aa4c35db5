// Golden snapshots in the scip-typescript style: each source file of a
// fixture, with what sextant answers about it drawn under the lines it
// concerns. Symbols, reference kinds, call hierarchies and type hierarchies
// all come from the real indexers through the query layer.
import { join, posix } from 'node:path';
import { Navigation } from '../../src/navigation/index.js';
import { openRegistry } from '../../src/registry/open.js';
import { DERIVED_ROLE, refKindName } from '../../src/registry/payload.js';
import { SymbolRole } from '../../src/scip/schema.js';
import type { DocumentSymbol } from '../../src/protocol/document-symbols.js';
import type { Call, CallItem } from '../../src/protocol/call-hierarchy.js';
import type { TypeItem } from '../../src/protocol/type-hierarchy.js';
import { fixtureRepo, removeDir } from './repos.js';
import { indexOrThrow, registryFile, testHome } from './sextant.js';

const COMMENT: Record<string, string> = { '.ts': '//', '.tsx': '//', '.js': '//', '.py': '#' };
const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum']);

interface Note {
  line: number;
  column: number;
  width: number;
  text: string;
}

/** Renders every source file of test/fixtures/NAME; returns repository-relative path -> annotated text. */
export async function renderFixture(name: string): Promise<Map<string, string>> {
  const repo = fixtureRepo(name);
  const { home, env } = testHome();
  try {
    indexOrThrow(repo, env);
    const engine = await openRegistry({ registry: registryFile(home) });
    try {
      const nav = new Navigation(engine);
      const status = await nav.getIndexStatus({ repo: name });
      const index = await nav.lookups.index((await nav.lookups.repo(name))!.current_index_id!);
      const files = await nav.lookups.db
        .selectFrom('index_files')
        .select(['path', 'blob_sha', 'document_id'])
        .where('index_id', '=', index!.id)
        .where('document_id', 'is not', null)
        .orderBy('path')
        .execute();
      const out = new Map<string, string>();
      for (const file of files) {
        const prefix = COMMENT[posix.extname(file.path)];
        if (!prefix) continue;
        const lines = (await nav.lookups.lines(file.blob_sha)) ?? [];
        const notes = await notesFor(nav, name, file.path, file.document_id!);
        out.set(file.path, draw(lines, notes, prefix));
      }
      if (out.size === 0) throw new Error(`nothing rendered for ${name}: ${JSON.stringify(status.language_tiers)}`);
      return out;
    } finally {
      await engine.close();
    }
  } finally {
    removeDir(join(repo, '..'));
    removeDir(home);
  }
}

async function notesFor(nav: Navigation, repo: string, path: string, documentId: number): Promise<Note[]> {
  const notes: Note[] = [];
  const document = await nav.lookups.document(documentId);
  for (const o of document.occurrences) {
    if (o.roles & SymbolRole.Definition || o.range[0] !== o.range[2] || o.range[1] === o.range[3]) continue;
    notes.push({
      line: o.range[0],
      column: o.range[1],
      width: o.range[3] - o.range[1],
      text: `${refKindName(o.refKind) ?? 'naming-only'} ${shortSymbol(document.symbols[o.symbol]!)}${o.roles & DERIVED_ROLE ? ' (from source)' : ''}`,
    });
  }
  const { symbols } = await nav.documentSymbols({ repo, path });
  const walk = async (list: DocumentSymbol[], parents: string[]) => {
    for (const s of list) {
      const at = { repo, path, line: s.selection_range.line, column: s.selection_range.column };
      const note = (text: string) =>
        notes.push({ line: at.line - 1, column: at.column - 1, width: s.selection_range.end_column - s.selection_range.column, text });
      note(`definition ${s.kind} ${[...parents, s.name].join('.')}`);
      if (['function', 'method', 'constructor', 'variable'].includes(s.kind)) {
        for (const direction of ['incoming', 'outgoing'] as const) {
          const r = await nav.callHierarchy({ ...at, direction, depth: 1, include_references: false, limit: 200 }).catch((error: Error) => {
            // A variable that holds no function has no call hierarchy; anything else is a failure.
            if (s.kind === 'variable' && /not a function/.test(error.message)) return undefined;
            throw error;
          });
          for (const call of r?.calls ?? []) note(`${direction === 'incoming' ? 'called by' : 'calls'} ${callLabel(call, direction)}`);
        }
      }
      if (TYPE_KINDS.has(s.kind) || s.kind === 'method') {
        for (const direction of ['supertypes', 'subtypes'] as const) {
          const r = await nav.typeHierarchy({ ...at, direction, depth: 1 });
          for (const t of r.types) note(`${direction === 'supertypes' ? 'extends' : 'extended by'} ${itemLabel(t)}`);
        }
      }
      await walk(s.children, [...parents, s.name]);
    }
  };
  await walk(symbols, []);
  return notes;
}

function callLabel(call: Call, direction: 'incoming' | 'outgoing'): string {
  const other = (direction === 'incoming' ? call.from : call.to) as CallItem;
  const lines = call.ranges.map((r) => `${r.path === other.path ? '' : r.path + ':'}${r.line}:${r.column}`).join(' ');
  return `${itemLabel(other)} at ${lines}`;
}

function itemLabel(item: CallItem | TypeItem): string {
  const name = `${item.container ? item.container + '.' : ''}${item.name}`;
  return item.path ? `${item.kind} ${name} (${item.path}:${item.line})` : `${name} (outside the index)`;
}

/** The readable tail of a SCIP symbol: its descriptors, without scheme and package. */
function shortSymbol(symbol: string): string {
  if (symbol.startsWith('local ')) return symbol;
  const parts = symbol.split(' ');
  return parts.slice(4).join(' ');
}

function draw(lines: readonly string[], notes: Note[], prefix: string): string {
  const byLine = new Map<number, Note[]>();
  for (const n of notes) {
    const list = byLine.get(n.line);
    if (list) list.push(n);
    else byLine.set(n.line, [n]);
  }
  const out: string[] = [];
  lines.forEach((text, i) => {
    out.push(text);
    const list = (byLine.get(i) ?? []).sort((a, b) => a.column - b.column || a.text.localeCompare(b.text));
    for (const n of list) {
      // The caret line starts with the comment marker, so it cannot point left of it.
      const column = Math.max(n.column, prefix.length);
      const shifted = column === n.column ? '' : ` [column ${n.column + 1}]`;
      out.push(`${prefix}${' '.repeat(column - prefix.length)}${'^'.repeat(Math.max(n.width, 1))} ${n.text}${shifted}`);
    }
  });
  return out.join('\n');
}
