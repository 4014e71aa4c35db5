// Language server manifests: one NAME.lsp.json per server beside the
// indexers' manifests in indexers/ (and, for servers of your own such as gopls
// or rust-analyzer, under $SEXTANT_INDEXERS), declaring its languages, how to
// run it, which files at a repository's root mean the project configures the
// server itself, and which requests it answers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { BUILTIN_DIR, LSP_SUFFIX, resolveCommand } from '../orchestrator/manifests.js';
import { projectFile } from '../paths.js';

export const CAPABILITIES = ['definition', 'references', 'callHierarchy', 'documentSymbol'] as const;

const Manifest = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/),
  languages: z.array(z.string()).min(1),
  /** The LSP languageId of each language's documents. */
  languageIds: z.record(z.string(), z.string()),
  command: z.union([z.strictObject({ npm: z.string(), bin: z.string() }), z.strictObject({ path: z.string() })]),
  args: z.array(z.string()),
  /** Files at the repository root by which a project configures the server itself; without any, `defaults` apply. */
  rootMarkers: z.array(z.string()).default([]),
  defaults: z
    .strictObject({
      /** Added to args; {defaults} is a directory sextant owns for this repository and server. */
      args: z.array(z.string()).default([]),
      /** Flags per language of a compilation database sextant writes in {defaults}, listing the repository's files. */
      compilationDatabase: z.record(z.string(), z.array(z.string())).optional(),
    })
    .optional(),
  /** Strings may name an npm package's directory as {npm:NAME}. */
  initializationOptions: z.record(z.string(), z.unknown()).default({}),
  capabilities: z.array(z.enum(CAPABILITIES)),
  recovery: z.strictObject({ missing: z.string() }).partial().default({}),
});
export type ServerManifest = z.infer<typeof Manifest>;

export function loadServerManifests(env: NodeJS.ProcessEnv = process.env): ServerManifest[] {
  const byName = new Map<string, ServerManifest>();
  for (const dir of [BUILTIN_DIR, env.SEXTANT_INDEXERS].filter((d): d is string => Boolean(d))) {
    if (!existsSync(dir)) throw new UserError(`SEXTANT_INDEXERS points at ${dir}, which does not exist: fix or unset it`);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(LSP_SUFFIX))
      .sort()) {
      const path = join(dir, file);
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new UserError(`language server manifest ${path} is not valid JSON (${(error as Error).message}): fix it`);
      }
      const result = Manifest.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new UserError(`language server manifest ${path}: ${issue.path.join('.') || 'manifest'}: ${issue.message}: fix it`);
      }
      byName.set(result.data.name, result.data);
    }
  }
  return [...byName.values()];
}

/** The manifest serving a language: a later manifest (SEXTANT_INDEXERS) wins over a built-in one. */
export function manifestFor(manifests: ServerManifest[], language: string): ServerManifest | undefined {
  return manifests.filter((m) => m.languages.includes(language)).pop();
}

/** The program and arguments that run a server; undefined when it is not installed. */
export function serverCommand(manifest: ServerManifest, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  return resolveCommand(manifest, env);
}

/** initializationOptions with each {npm:NAME} replaced by that installed package's directory. */
export function initializationOptions(manifest: ServerManifest): unknown {
  const require = createRequire(projectFile('package.json'));
  const expand = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return value.replace(/\{npm:([^}]+)\}/g, (_, name: string) => dirname(require.resolve(`${name}/package.json`)));
    }
    if (Array.isArray(value)) return value.map(expand);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
    return value;
  };
  return expand(manifest.initializationOptions);
}
