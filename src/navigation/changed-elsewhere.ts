// The files an answer from the index did not go through but that may have
// gained what it looks for since: files edited or created since HEAD whose
// text names the symbol. A use of a name is spelled with it (an import, a
// call, a member access, a rename `{ a as b }` names `a`), so a changed file
// that never spells it adds nothing and the index's answer stands; one that
// does is asked of the language server, which reads the worktree as it is
// (or, with none, named in the answer as not searched).
import { readRepoFile } from '../freshness/worktree.js';
import type { ChangedFiles } from '../freshness/worktree-changes.js';
import { languageOf } from '../languages.js';
import type { RepoContext } from './context.js';
import type { LiveServers } from './live.js';

/** Changed files read for the names per answer: past this many, the server is asked without looking. */
const MAX_FILES_READ = 1000;
/** Bytes of a changed file read for the names: a larger file is taken to name them. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Of the changed files of the worktree at `root`, those in `language` or
 * one answered with it (by one indexer, or one server: TypeScript and
 * JavaScript) that spell one of `names` as a whole word, leaving out `skip`
 * (the files the answer went through). When they cannot all be read (too
 * many, the listing cut, no name to look for), every candidate.
 */
export function changedMentioning(
  changed: ChangedFiles,
  ctx: Pick<RepoContext, 'languages'>,
  live: LiveServers | undefined,
  root: string,
  language: string,
  names: readonly string[],
  skip: ReadonlySet<string>,
): string[] {
  const indexer = ctx.languages[language]?.indexer ?? undefined;
  const server = live?.serverFor(language)?.name;
  const together = (other: string | undefined) =>
    other !== undefined &&
    (other === language ||
      (indexer !== undefined && ctx.languages[other]?.indexer === indexer) ||
      (server !== undefined && live?.serverFor(other)?.name === server));
  const candidates = changed.paths.filter((p) => !skip.has(p) && together(languageOf(p)));
  if (!changed.complete || names.length === 0) return candidates;
  return holding(candidates, root, (text) => names.some((name) => spells(text, name)));
}

/**
 * Of `candidates` (changed files under `root`), those whose text passes
 * `test`. Past MAX_FILES_READ files none is read, and each is taken to
 * pass, as is a file over MAX_FILE_BYTES.
 */
export function holding(candidates: readonly string[], root: string, test: (text: string) => boolean): string[] {
  if (candidates.length > MAX_FILES_READ) return [...candidates];
  return candidates.filter((p) => {
    const content = readRepoFile(root, p);
    if (!content) return false;
    return content.length > MAX_FILE_BYTES || test(content.toString('utf8'));
  });
}

/**
 * One line naming the changed files that no server searched, what they do
 * (`verb`: singular and plural, `names it`) and why, at most 5 of them.
 */
export function unsearchedNote(paths: readonly string[], why: string, verb: readonly [one: string, many: string]): string {
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
  const many = paths.length > 1;
  return `${paths.length} file${many ? 's' : ''} changed since the index ${many ? verb[1] : verb[0]} and ${many ? 'were' : 'was'} not searched (${why}): ${shown}; reindex to include them`;
}

const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200c\u200d]/u;

/** Whether `text` holds `name` with no identifier character on either side. */
export function spells(text: string, name: string): boolean {
  if (name.length === 0) return false;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at > 0 ? text[at - 1]! : '';
    const after = text[at + name.length] ?? '';
    if (!(before && IDENTIFIER_CHAR.test(before)) && !(after && IDENTIFIER_CHAR.test(after))) return true;
  }
  return false;
}
