// Writing results: JSON for machines, short lines for people.
import type { Meta } from '../protocol/meta.js';
import { reply } from '../trust/reply.js';

let printedJson = false;
let printedLines = false;

export function printJson(value: unknown): void {
  printedJson = true;
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** One JSON object a line, for output that is a stream of them (`sextant watch --json`'s events). */
export function printJsonLine(value: unknown): void {
  printedLines = true;
  process.stdout.write(JSON.stringify(value) + '\n');
}

/**
 * With `--json`, a failure is a JSON object on stdout too, `{"error": "..."}`
 * as an MCP tool's failure is, unless the command printed its answer already
 * (def and refs print a "not found" answer, then exit 1): stdout holds one
 * JSON document either way. After a stream of JSON lines, it is one more line.
 */
export function printJsonError(message: string): void {
  if (printedLines) printJsonLine({ error: message });
  else if (!printedJson) printJson({ error: message });
}

/** A tool's answer as `--json` prints it: within the same byte budget and envelope as over MCP. */
export function printAnswer(answer: object, provenance: Meta['provenance'] = 'local-index'): void {
  printJson(reply(answer as Record<string, unknown>, provenance));
}

/** The line that says an answer comes from another commit's index. */
export function nearestLine(n: { requested: string; commit: string; distance: number }): string {
  return `(no index at ${n.requested.slice(0, 12)}: answered from its nearest published ancestor ${n.commit.slice(0, 12)}, ${n.distance} commit${n.distance === 1 ? '' : 's'} back)`;
}

export function print(line = ''): void {
  process.stdout.write(line + '\n');
}

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** Like plural, for words whose plural is not the word plus "s". */
export function counted(n: number, singular: string, plural: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}
