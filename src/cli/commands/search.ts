// sextant search QUERY: code search over the stored text of indexed repositories.
import { CAP, LIMIT, MAX_CONTEXT, Params, type Match } from '../../protocol/search-code.js';
import { Search } from '../../search/index.js';
import { chooseRepo, withNavigation } from '../context.js';
import { UsageError, wholeNumberOption, type CommandSpec, type Parsed } from '../parse.js';
import { counted, print, printAnswer } from '../output.js';
import { request } from '../request.js';
import { VERSION } from '../version.js';

export const spec: CommandSpec = {
  name: 'search',
  summary: 'Search the text of the indexed files (searchCode): a literal by default, an RE2 regex with --regex.',
  usage:
    'sextant search QUERY [--repo NAME | --all] [--regex] [--case-sensitive] [--path GLOB] [--ext ts,py] [--context N] [--limit N] [--json]',
  details: [
    'Searches the repository containing the current directory when it is indexed, else every repository.',
    'Case-insensitive unless --case-sensitive. Prints path:line:column and the line, the match highlighted on a terminal.',
    '  --repo NAME         only this repository',
    '  --all               every repository in the registry',
    '  --regex             QUERY is an RE2 regular expression (linear time: no pattern can hang)',
    '  --case-sensitive    match case exactly',
    '  --path GLOB         only paths matching GLOB (src/**/*.ts; without "/", file names at any depth)',
    '  --ext LIST          only these extensions, comma-separated (ts,py)',
    `  --context N         N lines before and after each match (at most ${MAX_CONTEXT})`,
    `  --limit N           at most N matches (default ${LIMIT}, at most ${CAP})`,
  ],
  options: {
    repo: { type: 'string' },
    all: { type: 'boolean' },
    regex: { type: 'boolean' },
    'case-sensitive': { type: 'boolean' },
    path: { type: 'string' },
    ext: { type: 'string' },
    context: { type: 'string' },
    limit: { type: 'string' },
  },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const query = positionals[0];
  if (!query) throw new UsageError(`what to search for is missing (usage: ${spec.usage})`);
  if (values.repo !== undefined && values.all) throw new UsageError('pass --repo NAME or --all, not both');
  const context = wholeNumberOption(values.context, 'context', 0);
  const limit = wholeNumberOption(values.limit, 'limit', 1);
  const extensions = typeof values.ext === 'string' ? values.ext.split(',').map((e) => e.trim()) : undefined;
  if (extensions?.some((e) => !e)) throw new UsageError(`--ext takes extensions separated by commas, such as ts,py; got "${values.ext}"`);
  return withNavigation(values.registry as string | undefined, async (nav, engine) => {
    const repo = values.all ? undefined : ((values.repo as string | undefined) ?? (await repoHere(nav)));
    const result = await new Search(engine, VERSION).searchCode(request(Params, {
      query,
      ...(repo !== undefined ? { repo } : {}),
      regex: values.regex === true,
      case_sensitive: values['case-sensitive'] === true,
      ...(values.path !== undefined ? { path: values.path as string } : {}),
      ...(extensions ? { extensions } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(limit !== undefined ? { limit } : {}),
    }));
    if (values.json) {
      printAnswer(result, 'local-analysis');
      return 0;
    }
    const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
    const prefix = (m: Match, line: number, sep: string) => `${result.searched.length > 1 ? `${m.repo}${sep}` : ''}${m.path}${sep}${line}`;
    for (const m of result.matches) {
      m.before?.forEach((text, i) => print(`${prefix(m, m.line - m.before!.length + i, '-')}-  ${text}`));
      print(`${prefix(m, m.line, ':')}:${m.column}  ${highlight(m, color)}`);
      m.after?.forEach((text, i) => print(`${prefix(m, m.line + 1 + i, '-')}-  ${text}`));
    }
    const summary = counted(result.total, 'match', 'matches');
    const why = {
      limit: `showing the first ${result.matches.length}`,
      match_budget: 'counting stopped at the match budget',
      time_budget: 'stopped at the time budget',
    };
    print(
      result.truncated_reason
        ? `${result.total_exact ? '' : 'at least '}${summary} (${why[result.truncated_reason]})`
        : `${summary} in ${counted(result.searched.length, 'repository', 'repositories')}`,
    );
    for (const u of result.unsearchable ?? []) print(`not searched: ${u.repo} (published without --root: the registry holds no file texts)`);
    return 0;
  });
}

/** The repository containing the current directory, when it is indexed; else every repository. */
async function repoHere(nav: Parameters<typeof chooseRepo>[0]): Promise<string | undefined> {
  try {
    return (await chooseRepo(nav, undefined)).slug;
  } catch {
    return undefined;
  }
}

function highlight(m: Match, color: boolean): string {
  if (!color || m.end_line !== m.line) return m.preview;
  const from = m.column - (m.preview_column ?? 1);
  const to = Math.min(m.preview.length, m.end_column - (m.preview_column ?? 1));
  if (from < 0 || from >= m.preview.length) return m.preview;
  return `${m.preview.slice(0, from)}\x1b[1;31m${m.preview.slice(from, to)}\x1b[0m${m.preview.slice(to)}`;
}
