// sextant refs PATH:LINE:COL | SYMBOL: every reference to something.
import { quote, UserError } from '../../errors.js';
import { REF_KINDS } from '../../registry/payload.js';
import * as References from '../../protocol/references.js';
import { CAP, LIMIT } from '../../protocol/references.js';
import { request } from '../request.js';
import { chooseRepo, repoRelative, withNavigation } from '../context.js';
import { wholeNumberOption, parseTarget, UsageError, type CommandSpec, type Parsed } from '../parse.js';
import { nearestLine, plural, print, printAnswer } from '../output.js';

export const spec: CommandSpec = {
  name: 'refs',
  summary: 'Find references: by position (PATH:LINE:COL, 1-based) or by exact symbol name.',
  usage: 'sextant refs PATH:LINE:COL | SYMBOL [--repo NAME] [--commit SHA] [--kind KIND] [--limit N] [--no-declaration] [--json]',
  details: [
    '  --repo NAME        the repository, by name or by a path inside it (default: the one containing the current directory)',
    `  --kind KIND        only references of this kind: ${REF_KINDS.join(', ')}`,
    `  --limit N          at most N references (default ${LIMIT}, at most ${CAP})`,
    '  --no-declaration   leave out the declarations',
    '  --commit SHA        answer at this commit (its published index, else its nearest published ancestor, flagged)',
  ],
  options: { repo: { type: 'string' }, commit: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' }, 'no-declaration': { type: 'boolean' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  if (!positionals[0]) throw new UsageError(`what to look up is missing (usage: ${spec.usage})`);
  const target = parseTarget(positionals[0]);
  const kind = values.kind as string | undefined;
  if (kind !== undefined && !(REF_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--kind must be one of ${REF_KINDS.join(', ')}, got ${quote(kind)}`);
  }
  const limit = wholeNumberOption(values.limit, 'limit', 1) ?? LIMIT;
  return withNavigation(values.registry as string | undefined, async (nav) => {
    const choice = await chooseRepo(nav, values.repo as string | undefined);
    const result = await nav.findReferences(
      request(References.Params, {
        repo: choice.slug,
        ...('symbol' in target ? target : { ...target, path: repoRelative(target.path, choice) }),
        include_declaration: !values['no-declaration'],
        ...(kind ? { kind: kind as (typeof REF_KINDS)[number] } : {}),
        limit,
        ...(values.commit !== undefined ? { commit: values.commit as string } : {}),
      }),
    );
    if (!values.json && result.nearest_commit) print(nearestLine(result.nearest_commit));
    if (values.json) printAnswer(result);
    // Nothing to look up (no symbol there, no symbol of that name) exits 1 and says why on stderr, as def and calls do.
    if (result.symbols.length === 0 && result.total === 0) throw new UserError(result.message ?? 'no symbol found');
    if (values.json) return 0;
    if (result.message) print(result.message);
    for (const r of result.references) print(`${r.path}:${r.line}:${r.column}  ${r.kind.padEnd(10)} ${r.preview?.trim() ?? ''}`);
    const shown = result.truncated ? `${result.references.length} of ${result.total}` : `${result.total}`;
    print(
      `${plural(result.total, 'reference').replace(/^[\d,]+/, shown)}${result.truncated ? ` (truncated: raise --limit, at most ${CAP})` : ''}`,
    );
    return 0;
  });
}
