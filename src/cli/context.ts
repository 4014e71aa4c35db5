// What commands share: the registry, the query layer, and which repository
// the user means (named with --repo, or the one containing the current directory).
import { relative, resolve, sep } from 'node:path';
import { UserError } from '../errors.js';
import type { Navigation } from '../navigation/index.js';
import type { Engine } from '../registry/engine.js';

export async function withNavigation<T>(registry: string | undefined, action: (nav: Navigation, engine: Engine) => Promise<T>): Promise<T> {
  // Loaded here, not with the module: `sextant --help` reads every command's spec.
  const [{ openRegistry }, { Navigation }, { lspPoolFromEnv }] = await Promise.all([
    import('../registry/open.js'),
    import('../navigation/index.js'),
    import('../lsp/pool.js'),
  ]);
  const engine = await openRegistry({ registry });
  // A one-shot command starts a language server only when a query needs one (the lsp tier), and stops it
  // before exiting: it answers, cold. `sextant mcp` keeps servers warm between queries.
  const live = lspPoolFromEnv();
  try {
    return await action(new Navigation(engine, { live }), engine);
  } finally {
    await live?.close();
    await engine.close();
  }
}

export interface RepoChoice {
  slug: string;
  /** The worktree root when the current directory is inside the repository. */
  root: string | undefined;
}

/**
 * --repo NAME (or the path of a directory in the repository, as `sextant
 * index` takes it), else the registered repository whose worktree contains
 * the current directory.
 */
export async function chooseRepo(nav: Navigation, named: string | undefined, cwd = process.cwd()): Promise<RepoChoice> {
  const root = await gitRootOf(cwd);
  if (named) {
    const repo = (await nav.lookups.repo(named)) ?? (PATH_LIKE.test(named) ? await registeredAt(nav, named, cwd) : undefined);
    return { slug: repo?.slug ?? named, root: repo && root && repo.root_path === root ? root : undefined };
  }
  if (root) {
    const repo = await registeredRoot(nav, root);
    if (repo) return { slug: repo.slug, root };
    throw new UserError(`${root} is not indexed yet: run \`sextant index\` there, or pass --repo NAME`);
  }
  throw new UserError('the current directory is not in a git repository: pass --repo NAME (see `sextant status`)');
}

/** The registered repository whose worktree is `root`. */
function registeredRoot(nav: Navigation, root: string): Promise<{ slug: string; root_path: string | null } | undefined> {
  return nav.lookups.db.selectFrom('repos').select(['slug', 'root_path']).where('root_path', '=', root).executeTakeFirst();
}

/** What a path names rather than a repository's name: `.`, `..`, or anything with a separator. */
const PATH_LIKE = /^\.\.?$|[/\\]/;

async function gitRootOf(directory: string): Promise<string | undefined> {
  try {
    return await (await import('../freshness/git.js')).gitRoot(directory);
  } catch {
    return undefined;
  }
}

/** The registered repository whose worktree holds the directory `path` (relative to `cwd`); none is no answer. */
async function registeredAt(nav: Navigation, path: string, cwd: string): Promise<{ slug: string; root_path: string | null } | undefined> {
  const root = await gitRootOf(resolve(cwd, path));
  if (!root) return undefined;
  const repo = await registeredRoot(nav, root);
  if (!repo) throw new UserError(`${root} is not indexed yet: run \`sextant index ${path}\`, or pass --repo NAME`);
  return repo;
}

/** A position typed at a terminal, in the repository the user means (see chooseRepo and repoRelative). */
export async function positionIn(
  nav: Navigation,
  named: string | undefined,
  target: { path: string; line: number; column: number },
): Promise<{ repo: string; path: string; line: number; column: number }> {
  const choice = await chooseRepo(nav, named);
  return { repo: choice.slug, ...target, path: repoRelative(target.path, choice) };
}

/** A path typed at a terminal, made repository-relative when the user is inside the repository. */
export function repoRelative(path: string, choice: RepoChoice, cwd = process.cwd()): string {
  if (!choice.root) return path;
  const rel = relative(choice.root, resolve(cwd, path));
  return rel.split(sep).join('/');
}
