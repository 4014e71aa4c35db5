// sextant types PATH:LINE:COL: supertypes or subtypes of a type (or overrides of a method).
import type { TypeItem } from '../../protocol/type-hierarchy.js';
import * as TypeHierarchy from '../../protocol/type-hierarchy.js';
import { MAX_DEPTH } from '../../protocol/type-hierarchy.js';
import { request } from '../request.js';
import { positionIn, withNavigation } from '../context.js';
import { positionArgument, wholeNumberOption, type CommandSpec, type Parsed } from '../parse.js';
import { print, printAnswer } from '../output.js';

export const spec: CommandSpec = {
  name: 'types',
  summary: 'Type hierarchy: the supertypes (default) or subtypes (--subtypes) of the type at PATH:LINE:COL.',
  usage: 'sextant types PATH:LINE:COL [--subtypes] [--depth N] [--repo NAME] [--json]',
  details: [
    '  --subtypes     list what extends or implements it instead of what it extends or implements',
    `  --depth N      follow N levels (default 1, at most ${MAX_DEPTH})`,
    '  --repo NAME    the repository, by name or by a path inside it (default: the one containing the current directory)',
  ],
  options: { subtypes: { type: 'boolean' }, depth: { type: 'string' }, repo: { type: 'string' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const target = positionArgument(positionals, spec);
  const depth = wholeNumberOption(values.depth, 'depth', 1) ?? 1;
  return withNavigation(values.registry as string | undefined, async (nav) => {
    const result = await nav.typeHierarchy(
      request(TypeHierarchy.Params, {
        ...(await positionIn(nav, values.repo as string | undefined, target)),
        direction: values.subtypes ? 'subtypes' : 'supertypes',
        depth,
      }),
    );
    if (values.json) {
      printAnswer(result);
      return 0;
    }
    const line = (t: TypeItem) =>
      `${t.kind} ${t.name}  ${t.path ? `${t.repo === result.repo ? '' : `${t.repo}:`}${t.path}:${t.line}:${t.column}` : `(outside the indexed code${t.detail ? `: ${t.detail}` : ''})`}`;
    print(line(result.item));
    const show = (types: TypeItem[], indent: string) => {
      for (const t of types) {
        print(`${indent}${result.direction === 'supertypes' ? '^' : 'v'} ${line(t)}`);
        if (t.types) show(t.types, indent + '  ');
      }
    };
    show(result.types, '  ');
    if (result.types.length === 0) print(`  no ${result.direction}`);
    if (result.message) print(`  note: ${result.message}`);
    return 0;
  });
}
