// Runs in the indexer (see indexer-preload.ts). scip-typescript builds each
// project's program from its file list and options alone
// (`ts.createProgram(config.fileNames, config.options, host)`), without the
// project's `references`. In a monorepo of composite projects, a package that
// imports a sibling by name resolves, through the workspace's symlink and the
// sibling's package.json, to the sibling's output (`dist/index.d.ts`), which
// does not exist until the sibling is built: every such import was left
// unresolved, and its names local. A language server builds the program with
// the references and reads a referenced project's sources in place of its
// outputs (useSourceOfProjectReferenceRedirect); sextant's run now does too.
//
// sextant gives scip-typescript a config that lists no references (it would
// index every referenced project again, files other configs own among them):
// the user's references travel under REFERENCES_KEY, which the compiler
// ignores and keeps in the parsed config's `raw`.
import type * as ts from 'typescript';

/** The key of a generated config that lists the absolute paths of the configs its project references. */
export const REFERENCES_KEY = 'sextant:references';

/** The call the rewrite replaces, as scip-typescript 0.4's ProjectIndexer.js writes it. */
const CREATE_PROGRAM = 'ts.createProgram(config.fileNames, config.options, host)';
const HOOK = Symbol.for('sextant.programOptions');

/**
 * ProjectIndexer.js's text with its program made by `programOptions`, or
 * the text as it is where the call is not written as expected (another
 * version of scip-typescript: its projects then compile without references).
 */
export function withProjectReferences(source: string, tsc: typeof ts): string {
  const at = source.indexOf(CREATE_PROGRAM);
  if (at < 0 || source.indexOf(CREATE_PROGRAM, at + 1) >= 0) return source;
  (globalThis as Record<symbol, unknown>)[HOOK] ??= programOptions(tsc);
  const call = `ts.createProgram(globalThis[Symbol.for(${JSON.stringify(HOOK.description)})](config, host))`;
  return source.slice(0, at) + call + source.slice(at + CREATE_PROGRAM.length);
}

type Host = ts.CompilerHost & { useSourceOfProjectReferenceRedirect?(): boolean };

/** Makes the program of a project, with the references its generated config lists. */
function programOptions(tsc: typeof ts) {
  // Each referenced config read once per run, as projects share them.
  const parsed = new Map<string, ts.ParsedCommandLine | undefined>();
  const parse = (fileName: string) => {
    if (!parsed.has(fileName)) {
      const host = { ...tsc.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
      parsed.set(fileName, tsc.getParsedCommandLineOfConfigFile(fileName, undefined, host));
    }
    return parsed.get(fileName);
  };
  return (config: ts.ParsedCommandLine, host: Host): ts.CreateProgramOptions => {
    const listed = (config.raw as Record<string, unknown> | undefined)?.[REFERENCES_KEY];
    const paths = Array.isArray(listed) ? listed.filter((p): p is string => typeof p === 'string') : [];
    if (paths.length === 0) return { rootNames: config.fileNames, options: config.options, host };
    // The compiler host's hook (internal to TypeScript; a language server's host sets it): a referenced project's
    // sources stand for its outputs, built or not.
    host.useSourceOfProjectReferenceRedirect = () => true;
    // scip-typescript's host asks a host of its own for the configs, which reads none: the program then finds
    // no referenced project.
    const cached = host.getParsedCommandLine?.bind(host);
    host.getParsedCommandLine = (fileName) => cached?.(fileName) ?? parse(fileName);
    return { rootNames: config.fileNames, options: config.options, host, projectReferences: paths.map((path) => ({ path })) };
  };
}
