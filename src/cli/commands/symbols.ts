// sextant symbols QUERY: find defined symbols by part of their name.
import { SYMBOL_KINDS } from '../../scip/kind.js';
import { quote } from '../../errors.js';
import * as WorkspaceSymbols from '../../protocol/workspace-symbols.js';
import { CAP, LIMIT } from '../../protocol/workspace-symbols.js';
import { request } from '../request.js';
import { chooseRepo, withNavigation } from '../context.js';
import { wholeNumberOption, UsageError, type CommandSpec, type Parsed } from '../parse.js';
import { plural, print, printAnswer } from '../output.js';

export const spec: CommandSpec = {
  name: 'symbols',
  summary: 'Workspace symbols: definitions whose name contains QUERY (case-insensitive), best matches first.',
  usage: 'sextant symbols QUERY [--kind KIND] [--limit N] [--repo NAME] [--json]',
  details: [
    `  --kind KIND    only this kind: ${SYMBOL_KINDS.join(', ')}`,
    `  --limit N      at most N symbols (default ${LIMIT}, at most ${CAP})`,
    '  --repo NAME    the repository, by name or by a path inside it (default: the one containing the current directory)',
  ],
  options: { kind: { type: 'string' }, limit: { type: 'string' }, repo: { type: 'string' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const query = positionals[0]?.trim();
  if (!query) throw new UsageError(`what to search for is missing (usage: ${spec.usage})`);
  const kind = values.kind as string | undefined;
  if (kind !== undefined && !(SYMBOL_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--kind must be one of ${SYMBOL_KINDS.join(', ')}, got ${quote(kind)}`);
  }
  const limit = wholeNumberOption(values.limit, 'limit', 1) ?? LIMIT;
  return withNavigation(values.registry as string | undefined, async (nav) => {
    const choice = await chooseRepo(nav, values.repo as string | undefined);
    const result = await nav.workspaceSymbols(
      request(WorkspaceSymbols.Params, {
        repo: choice.slug,
        query,
        limit,
        ...(kind ? { kind: kind as (typeof SYMBOL_KINDS)[number] } : {}),
      }),
    );
    if (values.json) {
      printAnswer(result);
      return 0;
    }
    for (const s of result.symbols)
      print(`${s.kind.padEnd(12)} ${s.container ? `${s.container}.` : ''}${s.name}  ${s.path}:${s.line}:${s.column}`);
    print(result.truncated ? `${result.symbols.length} of ${plural(result.total, 'symbol')}` : plural(result.total, 'symbol'));
    return 0;
  });
}
