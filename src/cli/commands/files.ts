// sextant files: find (or count) the tracked files of indexed repositories (findFiles / countFiles).
import { Params as CountParams } from '../../protocol/count-files.js';
import { CAP, KINDS, LIMIT, Params, SORTS } from '../../protocol/find-files.js';
import { Search } from '../../search/index.js';
import { withNavigation } from '../context.js';
import { UsageError, wholeNumberOption, type CommandSpec, type Parsed } from '../parse.js';
import { counted, print, printAnswer } from '../output.js';
import { request } from '../request.js';
import { VERSION } from '../version.js';

export const spec: CommandSpec = {
  name: 'files',
  summary: 'Find the tracked files and directories of indexed repositories by name, path, kind, size and time (findFiles).',
  usage:
    'sextant files [NAME] [--path TEXT] [--regex] [--case-sensitive] [--search-path] [--repo NAME]... [--repo-name TEXT]... ' +
    '[--kind file|dir] [--ext ts,py] [--min-size N] [--max-size N] [--modified-after T] [--modified-before T] [--include-offline] ' +
    '[--sort KEY] [--desc] [--offset N] [--limit N] [--count] [--json]',
  details: [
    'NAME is a substring of the file name; every filter narrows (AND). Prints a table: kind, size (- when unknown), modified, repository, path.',
    '  --path TEXT            substring of the repository-relative path',
    '  --regex                NAME and --path are RE2 regular expressions',
    '  --case-sensitive       match NAME and --path case exactly',
    '  --search-path          match NAME against the whole path',
    '  --repo NAME            only this repository (repeatable)',
    '  --repo-name TEXT       only repositories whose name or root contains TEXT (repeatable)',
    `  --kind KIND            ${KINDS.join(', ')}`,
    '  --ext LIST             extensions, comma-separated (ts,py)',
    '  --min-size, --max-size bytes',
    '  --modified-after T, --modified-before T   Unix seconds, or a date (2026-01-31)',
    '  --include-offline      include repositories whose worktree is not on this machine',
    `  --sort KEY             ${SORTS.join(', ')} (default name); --desc reverses`,
    `  --offset N, --limit N  paging (default limit ${LIMIT}, at most ${CAP})`,
    '  --count                print only how many entries match (countFiles)',
  ],
  options: {
    path: { type: 'string' },
    regex: { type: 'boolean' },
    'case-sensitive': { type: 'boolean' },
    'search-path': { type: 'boolean' },
    repo: { type: 'string', multiple: true },
    'repo-name': { type: 'string', multiple: true },
    kind: { type: 'string' },
    ext: { type: 'string' },
    'min-size': { type: 'string' },
    'max-size': { type: 'string' },
    'modified-after': { type: 'string' },
    'modified-before': { type: 'string' },
    'include-offline': { type: 'boolean' },
    sort: { type: 'string' },
    desc: { type: 'boolean' },
    offset: { type: 'string' },
    limit: { type: 'string' },
    count: { type: 'boolean' },
  },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const v = values as Record<string, string | boolean | string[] | undefined>;
  const kind = v.kind as string | undefined;
  if (kind !== undefined && !(KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--kind must be one of ${KINDS.join(', ')}, got "${kind}"`);
  const sort = v.sort as string | undefined;
  if (sort !== undefined && !(SORTS as readonly string[]).includes(sort))
    throw new UsageError(`--sort must be one of ${SORTS.join(', ')}, got "${sort}"`);
  const filters: Params = {
    ...(positionals[0] !== undefined ? { name: positionals[0] } : {}),
    ...(v.path !== undefined ? { path: v.path as string } : {}),
    regex: v.regex === true,
    case_sensitive: v['case-sensitive'] === true,
    search_path: v['search-path'] === true,
    ...(v.repo ? { repos: v.repo as string[] } : {}),
    ...(v['repo-name'] ? { repo_names: v['repo-name'] as string[] } : {}),
    ...(kind ? { kind: kind as Params['kind'] } : {}),
    ...(typeof v.ext === 'string' ? { extensions: v.ext.split(',').map((e) => e.trim()) } : {}),
    ...optionalNumber('min_size', wholeNumberOption(v['min-size'] as string | undefined, 'min-size', 0)),
    ...optionalNumber('max_size', wholeNumberOption(v['max-size'] as string | undefined, 'max-size', 0)),
    ...optionalNumber('modified_after', timeOption(v['modified-after'] as string | undefined, 'modified-after')),
    ...optionalNumber('modified_before', timeOption(v['modified-before'] as string | undefined, 'modified-before')),
    include_offline: v['include-offline'] === true,
  };
  return withNavigation(values.registry as string | undefined, async (_nav, engine) => {
    const search = new Search(engine, VERSION);
    if (v.count) {
      if (sort !== undefined || v.desc || v.offset !== undefined || v.limit !== undefined) {
        throw new UsageError('--count takes no --sort, --desc, --offset or --limit');
      }
      const result = await search.countFiles(request(CountParams, filters));
      if (values.json) printAnswer(result, 'local-filesystem');
      else {
        print(counted(result.count, 'entry', 'entries'));
        printOffline(result.scan_state.offline_excluded);
      }
      return 0;
    }
    const result = await search.findFiles(
      request(Params, {
        ...filters,
        ...(sort ? { sort: sort as Params['sort'] } : {}),
        desc: v.desc === true,
        ...optionalNumber('offset', wholeNumberOption(v.offset as string | undefined, 'offset', 0)),
        ...optionalNumber('limit', wholeNumberOption(v.limit as string | undefined, 'limit', 1)),
      }),
    );
    if (values.json) {
      printAnswer(result, 'local-filesystem');
      return 0;
    }
    const rows = result.hits.map((h) => [
      h.kind,
      h.size === null ? '-' : String(h.size),
      new Date(h.mtime * 1000).toISOString().slice(0, 19).replace('T', ' '),
      h.repo,
      h.path,
    ]);
    const header = ['KIND', 'SIZE', 'MODIFIED', 'REPO', 'PATH'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
    if (rows.length) print(line(header));
    for (const r of rows) print(line(r));
    const shown = result.hits.length;
    const entries = counted(result.total, 'entry', 'entries');
    print(shown < result.total ? `${shown} of ${entries} (from ${result.offset + 1})` : entries);
    printOffline(result.scan_state.offline_excluded);
    return 0;
  });
}

/** Repositories with no worktree here are left out unless asked for: a count or a table says so, as JSON does (scan_state). */
function printOffline(repos: string[]): void {
  if (repos.length === 0) return;
  const named = `${repos.slice(0, 5).join(', ')}${repos.length > 5 ? ', …' : ''}`;
  print(`left out ${counted(repos.length, 'offline repository', 'offline repositories')} (${named}): pass --include-offline to include them`);
}

function optionalNumber<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

/** Unix seconds, or a date/time that Date understands. */
function timeOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (/^-?\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new UsageError(`--${name} must be Unix seconds or a date such as 2026-01-31, got "${value}"`);
  return Math.floor(ms / 1000);
}
