// sextant def PATH:LINE:COL | SYMBOL: where something is defined.
import { UserError } from '../../errors.js';
import * as Definition from '../../protocol/definition.js';
import { request } from '../request.js';
import { chooseRepo, repoRelative, withNavigation } from '../context.js';
import { parseTarget, UsageError, type CommandSpec, type Parsed } from '../parse.js';
import { nearestLine, print, printAnswer } from '../output.js';

export const spec: CommandSpec = {
  name: 'def',
  summary: 'Go to definition: by position (PATH:LINE:COL, 1-based) or by exact symbol name.',
  usage: 'sextant def PATH:LINE:COL | SYMBOL [--repo NAME] [--commit SHA] [--json]',
  details: [
    '  --repo NAME   the repository, by name or by a path inside it (default: the one containing the current directory)',
    '  --commit SHA  answer at this commit (its published index, else its nearest published ancestor, flagged)',
  ],
  options: { repo: { type: 'string' }, commit: { type: 'string' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  if (!positionals[0]) throw new UsageError(`what to look up is missing (usage: ${spec.usage})`);
  const target = parseTarget(positionals[0]);
  return withNavigation(values.registry as string | undefined, async (nav) => {
    const choice = await chooseRepo(nav, values.repo as string | undefined);
    const result = await nav.goToDefinition(
      request(Definition.Params, {
        repo: choice.slug,
        ...('symbol' in target ? target : { ...target, path: repoRelative(target.path, choice) }),
        ...(values.commit !== undefined ? { commit: values.commit as string } : {}),
      }),
    );
    if (!values.json && result.nearest_commit) print(nearestLine(result.nearest_commit));
    if (values.json) printAnswer(result);
    // Nothing found exits 1, and every exit 1 says why on one line of stderr.
    if (!result.found) throw new UserError(result.message ?? 'no definition found');
    if (!values.json) {
      // What a found answer says of itself: definitions matched by spelling, or a member found by name.
      if (result.message) print(result.message);
      for (const d of result.definitions) {
        const where = `${d.repo === result.repo ? '' : `${d.repo}:`}${d.path}:${d.line}:${d.column}`;
        print(`${where}  ${d.kind} ${d.container ? `${d.container}.` : ''}${d.name}`);
        if (d.preview !== undefined) print(`    ${d.preview.trim()}`);
      }
    }
    return 0;
  });
}
