// Answers that follow edits, and the nearest indexed commit (issue 8, items 6
// and 7), on a real repository of 496 files (rxjs's sources, its tsconfig and
// its operators' declarations), indexed once. In the worktree, without a
// reindex, lines are inserted at the top of src/internal/Observable.ts and
// the function argsOrArgArray is renamed where it is declared and wherever it
// is named. At sampled positions of unchanged code, in edited and unedited
// files, goToDefinition and findReferences are compared with what a fresh
// index of the edited tree (a second registry) answers: the same locations,
// less those on changed lines, which are dropped and counted, never returned
// unflagged. Then the edits are committed on a branch, the branch is indexed,
// and a checkout of another, unindexed branch off main answers from main's
// index (its nearest indexed ancestor), flagged with the distance. The
// changed lines are known from the edits themselves, not from sextant.
// Last, `sextant watch` on it publishes a commit and stops on SIGINT with its
// lock released.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Navigation } from '../src/navigation/index.js';
import { openRegistry } from '../src/registry/open.js';
import { rxjsWithDeclarationsRepo } from './support/corpus.js';
import { find, linesOf, trackedFiles } from './support/positions.js';
import { commitAll, git, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, registryFile, testHome, type McpSession } from './support/sextant.js';
import { prng, shuffle } from './support/stats.js';
import { registry, scalar } from './support/index-runs.js';
import { Watch } from './support/watch.js';

const TOP = 'src/internal/Observable.ts';
const INSERTED = 7;
const OLD_NAME = 'argsOrArgArray';
const NEW_NAME = 'argsOrArrayOfArgs';
const RENAMED_IN = 'src/internal/util/argsOrArgArray.ts';
/** Files sampled besides the edited ones, and positions per file. */
const UNEDITED_FILES = 25;
const PER_FILE = 6;

// The index alone, adjusted: with the lsp tier, positions on changed lines would be a language server's to answer
// (test/lsp-edited.test.ts holds that side).
const staleHome = testHome();
staleHome.env.SEXTANT_LSP = '0';
const freshHome = testHome();
let repo: string;
let main: string;
let stale: McpSession;
let fresh: McpSession;
/** Per edited file, its changed lines (1-based, in the current text). */
const changed = new Map<string, Set<number>>();

before(async () => {
  repo = rxjsWithDeclarationsRepo();
  assert.ok(trackedFiles(repo).length >= 300, 'a repository of at least 300 files');
  indexOrThrow(repo, staleHome.env);
  main = git(repo, 'rev-parse', 'HEAD').trim();

  // Lines inserted at the top of one file.
  const top = readFileSync(join(repo, TOP), 'utf8');
  const header = Array.from({ length: INSERTED }, (_, i) => `// inserted line ${i + 1}: this file was edited after the index`);
  writeFileSync(join(repo, TOP), `${header.join('\n')}\n${top}`);
  changed.set(TOP, new Set(header.map((_, i) => i + 1)));
  // A function renamed where it is declared and wherever it is named (its module keeps its file name).
  const word = new RegExp(`(?<![\\w$/])${OLD_NAME}\\b`, 'g');
  for (const path of trackedFiles(repo)) {
    const lines = linesOf(repo, path);
    const hit = new Set<number>();
    const renamed = lines.map((line, i) => (line.search(word) >= 0 ? (hit.add(i + 1), line.replace(word, NEW_NAME)) : line));
    if (hit.size === 0) continue;
    writeFileSync(join(repo, path), renamed.join('\n'));
    changed.set(path, hit);
  }
  assert.ok(changed.has(RENAMED_IN) && changed.size >= 4, `the rename edits several files: ${[...changed.keys()]}`);

  // The fresh index of the edited tree, in a registry of its own.
  indexOrThrow(repo, freshHome.env);
  [stale, fresh] = await Promise.all([mcpSession(staleHome.env), mcpSession(freshHome.env)]);
});

after(async () => {
  await Promise.all([stale?.close(), fresh?.close()]);
  if (repo) removeDir(join(repo, '..'));
  removeDir(staleHome.home);
  removeDir(freshHome.home);
});

interface Loc {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  adjusted?: boolean;
}
const key = (l: Loc) => `${l.path}:${l.line}:${l.column}-${l.end_line}:${l.end_column}`;
const onChanged = (l: Loc) => changed.get(l.path)?.has(l.line) === true;

/** Identifier positions on unchanged lines of a file, drawn with `random`. */
function positionsIn(path: string, count: number, random: () => number): { path: string; line: number; column: number }[] {
  const out: { path: string; line: number; column: number }[] = [];
  linesOf(repo, path).forEach((text, i) => {
    if (changed.get(path)?.has(i + 1) || /^\s*(\*|\/\/|\/\*)/.test(text)) return;
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) out.push({ path, line: i + 1, column: m.index + 1 });
  });
  return shuffle(out, random).slice(0, count);
}

/** Checks what the stale registry answers against the fresh one; returns how many locations were compared. */
function compare(what: string, staleLocs: Loc[], freshLocs: Loc[], dropped: number | undefined): number {
  for (const l of staleLocs) {
    assert.ok(!onChanged(l), `${what}: ${key(l)} points into a changed line`);
    assert.equal(l.adjusted === true, changed.has(l.path), `${what}: ${key(l)} is flagged adjusted exactly when its file was edited`);
  }
  const staleKeys = new Set(staleLocs.map(key));
  const freshKeys = new Set(freshLocs.map(key));
  assert.deepEqual(
    [...staleKeys].filter((k) => !freshKeys.has(k)),
    [],
    `${what}: every location answered is one the fresh index gives`,
  );
  const missing = freshLocs.filter((l) => !staleKeys.has(key(l)));
  assert.deepEqual(
    missing.filter((l) => !onChanged(l)).map(key),
    [],
    `${what}: the fresh index's locations on unchanged lines are all answered`,
  );
  // What the index had on the lines that changed is dropped and counted, one for one here (a rename replaces names in place).
  assert.equal(dropped ?? 0, missing.length, `${what}: dropped_locations counts what is left out`);
  return staleLocs.length;
}

describe('after edits in the worktree, without a reindex', () => {
  test('goToDefinition and findReferences at unchanged code answer what a fresh index answers, adjusted', async (t) => {
    const random = prng(8);
    const edited = [...changed.keys()];
    const unedited = shuffle(
      trackedFiles(repo).filter((p) => p.endsWith('.ts') && !changed.has(p)),
      random,
    ).slice(0, UNEDITED_FILES);
    let compared = 0;
    let positions = 0;
    let inEdited = 0;
    let adjustedLocations = 0;
    for (const path of [...edited, ...unedited]) {
      for (const p of positionsIn(path, PER_FILE, random)) {
        const args = { repo: 'rxjs', ...p };
        const [sd, fd] = await Promise.all([stale.ok('goToDefinition', args), fresh.ok('goToDefinition', args)]);
        if (!fd.found || fd.source === 'search') continue;
        positions++;
        if (changed.has(path)) inEdited++;
        assert.equal(fd.index_freshness, 'fresh', 'the fresh index is fresh');
        assert.equal(sd.index_freshness, sd.adjusted_files.length || sd.dropped_locations ? 'stale' : 'fresh');
        assert.equal(sd.stale, sd.index_freshness === 'stale', 'the ChengOS field agrees');
        const what = `goToDefinition at ${p.path}:${p.line}:${p.column}`;
        compared += compare(what, sd.definitions, fd.definitions, sd.dropped_locations?.on_changed_lines);
        adjustedLocations += sd.definitions.filter((d: Loc) => d.adjusted).length;
        const refArgs = { ...args, limit: 2000 };
        const [sr, fr] = await Promise.all([stale.ok('findReferences', refArgs), fresh.ok('findReferences', refArgs)]);
        if (sr.truncated || fr.truncated) continue;
        compared += compare(
          `findReferences at ${p.path}:${p.line}:${p.column}`,
          sr.references,
          fr.references,
          sr.dropped_locations?.on_changed_lines,
        );
        assert.equal(sr.total, sr.references.length);
        adjustedLocations += sr.references.filter((r: Loc) => r.adjusted).length;
        for (const f of sr.adjusted_files) assert.ok(changed.has(f), `${f} is named as adjusted only when it was edited`);
      }
    }
    t.diagnostic(`${positions} positions (${inEdited} in edited files), ${compared} locations compared, ${adjustedLocations} adjusted`);
    assert.ok(positions >= 50, `at least 50 positions resolved (${positions})`);
    assert.ok(inEdited >= 20, `at least 20 of them in edited files (${inEdited})`);
    assert.ok(adjustedLocations >= 20, `answers carried adjusted locations (${adjustedLocations})`);
    assert.ok(compared >= 500, `locations compared: ${compared}`);
  });

  test('a position on a changed line is explained, not answered from the index', async () => {
    const line = [...changed.get(RENAMED_IN)!][0]!;
    const column = linesOf(repo, RENAMED_IN)[line - 1]!.indexOf(NEW_NAME) + 1;
    const d = await stale.ok('goToDefinition', { repo: 'rxjs', path: RENAMED_IN, line, column });
    assert.equal(d.found, false);
    assert.match(d.message, new RegExp(`line ${line} of ${RENAMED_IN} changed since the index .*ask at unchanged code, or reindex`));
    assert.equal(d.index_freshness, 'stale');
    const r = await stale.ok('findReferences', { repo: 'rxjs', path: TOP, line: 2, column: 4 });
    assert.deepEqual(r.references, []);
    assert.match(r.message, /line 2 of src\/internal\/Observable\.ts changed since the index/);
    // The other tier's question: is this position on lines the index knows nothing true about?
    const engine = await openRegistry({ registry: registryFile(staleHome.home) });
    try {
      const nav = new Navigation(engine);
      assert.equal(await nav.onChangedLine('rxjs', RENAMED_IN, line), true);
      assert.equal(await nav.onChangedLine('rxjs', TOP, INSERTED), true);
      assert.equal(await nav.onChangedLine('rxjs', TOP, INSERTED + 1), false);
      assert.equal(await nav.onChangedLine('rxjs', 'src/internal/Subscriber.ts', 10), false);
    } finally {
      await engine.close();
    }
  });

  test('a name whose definition changed says so; the definitions that moved come back adjusted', async () => {
    const renamed = await stale.ok('goToDefinition', { repo: 'rxjs', symbol: OLD_NAME });
    assert.equal(renamed.found, false);
    assert.match(renamed.message, /on lines changed \(or in files deleted\) since the index/);
    // Without a server (this registry's answers are the index's alone), the files that still name it are named too.
    assert.match(renamed.message, /; \d+ files changed since the index hold the name and were not searched \(no language server for typescript\)/);
    assert.equal(renamed.dropped_locations.on_changed_lines, 1);
    const observable = await stale.ok('goToDefinition', { repo: 'rxjs', symbol: 'Observable' });
    const there = observable.definitions.find((d: Loc) => d.path === TOP);
    const now = linesOf(repo, TOP);
    assert.equal(there.adjusted, true);
    assert.match(now[there.line - 1]!, /^export class Observable<T>/, 'the definition is at its line in the current text');
    assert.equal(now[there.line - 1]!.trimEnd(), there.preview);
    assert.deepEqual(observable.adjusted_files, [TOP]);
    assert.equal(observable.meta.index_freshness, 'stale', 'the envelope says so too');
    const listed = await stale.ok('workspaceSymbols', { repo: 'rxjs', query: 'Observable' });
    const cls = listed.symbols.find((x: Loc & { name: string }) => x.path === TOP && x.name === 'Observable');
    assert.deepEqual([cls.line, cls.adjusted], [there.line, true], 'workspaceSymbols places it there too');
    const gone = await stale.ok('workspaceSymbols', { repo: 'rxjs', query: OLD_NAME });
    assert.deepEqual(gone.symbols, []);
    assert.equal(gone.dropped_locations.on_changed_lines, 1);
  });

  test('call and type hierarchies through edited files match the fresh index, items and ranges adjusted', async () => {
    /** An answer without what differs by design between the two registries: flags, freshness and the commit. */
    const comparable = (answer: unknown): unknown =>
      JSON.parse(JSON.stringify(answer), (k, v) =>
        ['adjusted', 'meta', 'index_freshness', 'stale', 'adjusted_files', 'commit'].includes(k) ? undefined : v,
      );
    const position = (path: string, pattern: RegExp) => ({ repo: 'rxjs', ...find(repo, path, pattern) });
    const asks: [string, Record<string, unknown>][] = [
      [
        'callHierarchy',
        { ...position('src/internal/util/isFunction.ts', /export function (isFunction)/), direction: 'incoming', depth: 2 },
      ],
      ['callHierarchy', { ...position(TOP, /^function (isObserver)/), direction: 'outgoing' }],
      ['callHierarchy', { ...position(TOP, /^function (getPromiseCtor)/), direction: 'incoming' }],
      [
        'callHierarchy',
        { ...position('src/internal/observable/onErrorResumeNext.ts', /export function (onErrorResumeNext)<A/), direction: 'incoming' },
      ],
      ['typeHierarchy', { ...position(TOP, /^export class (Observable)</), direction: 'supertypes' }],
    ];
    let adjusted = 0;
    for (const [tool, args] of asks) {
      const [s, f] = await Promise.all([stale.ok(tool, args), fresh.ok(tool, args)]);
      assert.equal(s.dropped_locations, undefined, `${tool} ${JSON.stringify(args)} drops nothing here`);
      assert.deepEqual(comparable(s), comparable(f), `${tool} ${JSON.stringify(args)}`);
      assert.equal(s.index_freshness, 'stale');
      adjusted += JSON.stringify(s).split('"adjusted":true').length - 1;
    }
    assert.ok(adjusted >= 10, `items and ranges were adjusted (${adjusted})`);
  });

  test('locations in a file deleted since the index are dropped and counted', async () => {
    const gone = 'src/internal/operators/count.ts';
    const saved = readFileSync(join(repo, gone));
    rmSync(join(repo, gone));
    try {
      const r = await stale.ok('findReferences', { repo: 'rxjs', symbol: 'reduce', limit: 2000 });
      assert.ok(r.dropped_locations.in_deleted_files >= 2, JSON.stringify(r.dropped_locations));
      assert.ok(!r.references.some((l: Loc) => l.path === gone));
      const error = await stale.call('goToDefinition', { repo: 'rxjs', path: gone, line: 60, column: 10 });
      assert.equal(error.isError, true);
      assert.match(error.result.error, /src\/internal\/operators\/count\.ts was deleted from the worktree since the index/);
    } finally {
      writeFileSync(join(repo, gone), saved);
    }
  });
});

describe('on a commit without an index', () => {
  let feature: string;
  let other: string;

  before(() => {
    git(repo, 'checkout', '-q', '-b', 'feature');
    feature = commitAll(repo, 'rename argsOrArgArray, note on Observable');
    // The branch is indexed too: it becomes the latest index, and is not an ancestor of what follows.
    indexOrThrow(repo, staleHome.env);
    git(repo, 'checkout', '-q', main);
    git(repo, 'checkout', '-q', '-b', 'other');
    writeFileSync(
      join(repo, 'src', 'internal', 'util', 'noop.ts'),
      `${readFileSync(join(repo, 'src', 'internal', 'util', 'noop.ts'), 'utf8')}\nexport const NOOP_TOO = 1;\n`,
    );
    commitAll(repo, 'one more');
    writeFileSync(join(repo, 'NOTES.md'), 'notes\n');
    other = commitAll(repo, 'two more');
  });

  test('answers come from the nearest indexed ancestor, flagged with the distance, and status says so', async () => {
    const d = await stale.ok('goToDefinition', { repo: 'rxjs', symbol: OLD_NAME });
    assert.equal(d.found, true, "main's index knows the function by its old name");
    assert.equal(d.commit, main);
    assert.deepEqual(d.nearest_commit, { requested: other, commit: main, distance: 2 });
    assert.equal(d.index_freshness, 'stale');
    assert.deepEqual(
      d.definitions.map((x: Loc) => [x.path, x.adjusted]),
      [[RENAMED_IN, undefined]],
    );
    // Positions are of the worktree as it is: on this branch Observable.ts has no inserted lines.
    const at = linesOf(repo, TOP).findIndex((l) => l.startsWith('export class Observable<T>'));
    const o = await stale.ok('goToDefinition', { repo: 'rxjs', path: TOP, line: at + 1, column: 14 });
    assert.equal(o.definitions[0].line, at + 1);
    assert.equal(o.nearest_commit.distance, 2);
    // A file edited on this branch is adjusted through the diff from main's text.
    const noop = await stale.ok('documentSymbols', { repo: 'rxjs', path: 'src/internal/util/noop.ts' });
    assert.deepEqual(noop.adjusted_files, ['src/internal/util/noop.ts']);

    const status = await stale.ok('getIndexStatus', { repo: 'rxjs' });
    assert.equal(status.commit, feature, 'the latest index is the branch indexed last');
    assert.deepEqual(status.nearest_commit, { requested: other, commit: main, distance: 2 });

    git(repo, 'checkout', '-q', 'feature');
    const back = await stale.ok('goToDefinition', { repo: 'rxjs', symbol: NEW_NAME });
    assert.equal(back.commit, feature, 'back on the branch, its own index answers');
    assert.equal(back.nearest_commit, undefined);
    assert.equal(back.index_freshness, 'fresh');
    assert.equal((await stale.ok('getIndexStatus', { repo: 'rxjs' })).nearest_commit, null);
  });
});

describe('sextant watch on this repository', () => {
  test('publishes a new commit (its edited file indexed without the rest); SIGINT stops it, exit 0, the lock released', async () => {
    // The fresh registry indexed this content (the edits, now the feature branch): its first run reuses it all.
    const watch = new Watch(repo, freshHome.env);
    try {
      const head = git(repo, 'rev-parse', 'HEAD').trim();
      await watch.next((e) => e.kind === 'indexed' && e.report.commit === head);
      const edited = 'src/internal/util/noop.ts';
      const seen = watch.events.length;
      writeFileSync(join(repo, edited), `${readFileSync(join(repo, edited), 'utf8')}\nexport const WATCHED = 1;\n`);
      const next = commitAll(repo, 'a commit for watch to publish');
      await watch.next((e) => e.kind === 'indexed' && e.report.commit === next && !e.report.dirty);
      // The edit is indexed first as the dirty tree or as the commit, as the poll falls.
      const first = watch.events.slice(seen).find((e) => e.kind === 'indexed')!;
      const project = first.report.indexers.find((i: { name: string }) => i.name === 'scip-typescript').projects[0];
      // The edited file, and the one of rxjs's that declares a global (given along so that names resolve alike).
      assert.deepEqual([project.granularity, project.files_run], ['files', 2], JSON.stringify(project));
      assert.equal(await watch.stop('SIGINT'), 0, watch.stderr);
      const db = registry(freshHome.home);
      try {
        assert.equal(scalar<number>(db, 'select count(*) from locks'), 0, 'the lock is released');
      } finally {
        db.close();
      }
      const status = await fresh.ok('getIndexStatus', { repo: 'rxjs' });
      assert.equal(status.commit, next);
      assert.equal(status.write_lock_present, false);
    } finally {
      await watch.stop('SIGKILL');
    }
  });
});
