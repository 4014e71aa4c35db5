// Indexer manifests: one JSON file per indexer under indexers/ (and, for
// indexers of your own, under $SEXTANT_INDEXERS), declaring its languages, how
// to run it and how long to let it run. Language servers' manifests lie beside
// them as NAME.lsp.json (src/lsp/manifests.ts reads those).
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { projectFile } from '../paths.js';
import { z } from 'zod';
import { UserError } from '../errors.js';

export const BUILTIN_DIR = projectFile('indexers');
/** The ending of a language server's manifest, which lies beside the indexers'. */
export const LSP_SUFFIX = '.lsp.json';

const Manifest = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/),
  languages: z.array(z.string()).min(1),
  command: z.union([z.strictObject({ npm: z.string(), bin: z.string() }), z.strictObject({ path: z.string() })]),
  /** Placeholders: {root} {output} {slug} {projects}. */
  args: z.array(z.string()),
  projects: z
    .strictObject({
      configFiles: z.array(z.string()).min(1),
      inferred: z.strictObject({ fileName: z.string(), compilerOptions: z.record(z.string(), z.unknown()) }).optional(),
    })
    .optional(),
  timeoutSeconds: z.number().positive(),
  recovery: z.strictObject({ missing: z.string(), failed: z.string(), empty: z.string(), timeout: z.string() }).partial().default({}),
});
export type IndexerManifest = z.infer<typeof Manifest>;

export function loadManifests(env: NodeJS.ProcessEnv = process.env): IndexerManifest[] {
  const byName = new Map<string, IndexerManifest>();
  for (const dir of [BUILTIN_DIR, env.SEXTANT_INDEXERS].filter((d): d is string => Boolean(d))) {
    if (!existsSync(dir)) throw new UserError(`SEXTANT_INDEXERS points at ${dir}, which does not exist: fix or unset it`);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !f.endsWith(LSP_SUFFIX))
      .sort()) {
      const path = join(dir, file);
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new UserError(`indexer manifest ${path} is not valid JSON (${(error as Error).message}): fix it`);
      }
      const result = Manifest.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new UserError(`indexer manifest ${path}: ${issue.path.join('.') || 'manifest'}: ${issue.message}: fix it`);
      }
      byName.set(result.data.name, result.data);
    }
  }
  return [...byName.values()];
}

/** The program and leading arguments that run an indexer; undefined when it is not installed. */
export function resolveCommand(manifest: Pick<IndexerManifest, 'command'>, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const command = manifest.command;
  if ('npm' in command) {
    try {
      const require = createRequire(projectFile('package.json'));
      const packageJson = require.resolve(`${command.npm}/package.json`);
      const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { bin?: string | Record<string, string> };
      const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[command.bin];
      if (!bin) return undefined;
      const script = join(dirname(packageJson), bin);
      return existsSync(script) ? [process.execPath, script] : undefined;
    } catch {
      return undefined;
    }
  }
  const found = isAbsolute(command.path)
    ? [command.path]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, command.path));
  const executable = found.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return executable ? [executable] : undefined;
}
