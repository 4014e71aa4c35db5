// sextant calls PATH:LINE:COL: who calls this, or what it calls.
import type { Call, CallItem } from '../../protocol/call-hierarchy.js';
import * as CallHierarchy from '../../protocol/call-hierarchy.js';
import { LIMIT, MAX_DEPTH } from '../../protocol/call-hierarchy.js';
import { request } from '../request.js';
import { positionIn, withNavigation } from '../context.js';
import { positionArgument, wholeNumberOption, type CommandSpec, type Parsed } from '../parse.js';
import { plural, print, printAnswer } from '../output.js';

export const spec: CommandSpec = {
  name: 'calls',
  summary: 'Call hierarchy: the callers (default) or the callees (--outgoing) of the function at PATH:LINE:COL.',
  usage: 'sextant calls PATH:LINE:COL [--outgoing] [--depth N] [--references] [--repo NAME] [--json]',
  details: [
    '  --outgoing     list what it calls instead of who calls it',
    `  --depth N      follow N levels (default 1, at most ${MAX_DEPTH})`,
    '  --references   also list mentions that are not calls (a function passed as a value)',
    '  --repo NAME    the repository, by name or by a path inside it (default: the one containing the current directory)',
  ],
  options: { outgoing: { type: 'boolean' }, depth: { type: 'string' }, references: { type: 'boolean' }, repo: { type: 'string' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const target = positionArgument(positionals, spec);
  const depth = wholeNumberOption(values.depth, 'depth', 1) ?? 1;
  return withNavigation(values.registry as string | undefined, async (nav) => {
    const result = await nav.callHierarchy(
      request(CallHierarchy.Params, {
        ...(await positionIn(nav, values.repo as string | undefined, target)),
        direction: values.outgoing ? 'outgoing' : 'incoming',
        depth,
        include_references: Boolean(values.references),
        limit: LIMIT,
      }),
    );
    if (values.json) {
      printAnswer(result);
      return 0;
    }
    const where = (item: CallItem) =>
      item.path
        ? `${item.repo === result.repo ? '' : `${item.repo}:`}${item.path}:${item.line}:${item.column}`
        : '(outside the indexed code)';
    const item = result.item;
    print(`${item.kind} ${item.container ? `${item.container}.` : ''}${item.name}  ${where(item)}`);
    const show = (calls: Call[], indent: string) => {
      for (const call of calls) {
        const other = (call.from ?? call.to)!;
        const arrow = call.from ? '<-' : '->';
        print(
          `${indent}${arrow} ${other.kind} ${other.container ? `${other.container}.` : ''}${other.name}  ${where(other)}  ×${call.ranges.length}${call.cycle ? '  (cycle)' : ''}`,
        );
        if (call.calls) show(call.calls, indent + '   ');
      }
    };
    show(result.calls, '  ');
    if (result.calls.length === 0) print(result.direction === 'incoming' ? '  no callers' : '  calls nothing');
    if (result.truncated) print(`  (truncated at ${result.limit} calls)`);
    if (result.references_omitted) {
      const n = result.references_omitted;
      print(`  left out: ${plural(n, 'mention')} that ${n === 1 ? 'is not a call' : 'are not calls'} (--references shows them)`);
    }
    for (const note of result.notes) print(`  note: ${note}`);
    return 0;
  });
}
