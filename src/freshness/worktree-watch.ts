// File events of a worktree, as `sextant watch` and a serving `sextant mcp`
// follow them: chokidar over the tree, skipping .git, node_modules and what
// git ignores (build outputs can be huge, and are never indexed).
import { relative, sep } from 'node:path';
import { watch as watchTree, type FSWatcher } from 'chokidar';
import { ignoredPaths } from './worktree.js';

export type { FSWatcher as TreeWatcher };

/**
 * Starts watching the files under `root`: `onChange` gets each event's
 * repository-relative path, or undefined when the watcher failed somewhere
 * (a directory gone mid-walk, too many watches): anything may have changed.
 * The watcher is ready (every directory watched) when it emits `ready`.
 * `persistent: false` lets the process end while it still watches.
 */
export async function watchWorktree(
  root: string,
  onChange: (path: string | undefined) => void,
  options: { persistent?: boolean } = {},
): Promise<FSWatcher> {
  const ignored = new Set(await ignoredPaths(root));
  const tree = watchTree(root, {
    ignoreInitial: true,
    persistent: options.persistent ?? true,
    ignored: (path: string) => {
      const rel = relative(root, path).split(sep).join('/');
      if (rel === '' || rel.startsWith('..')) return false;
      const top = rel.split('/');
      return top.includes('.git') || top.includes('node_modules') || top.some((_, i) => ignored.has(top.slice(0, i + 1).join('/')));
    },
  });
  tree.on('all', (_event, path) => onChange(relative(root, path).split(sep).join('/')));
  // An 'error' event without a listener would end the process.
  tree.on('error', () => onChange(undefined));
  return tree;
}
