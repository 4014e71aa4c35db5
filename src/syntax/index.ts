// Syntax facts by language: the TypeScript parser in-process (loaded on first
// use, so an indexer can start before sextant pays for loading it), Python's
// own ast module in one python3 process over all files, started up front.
import type { SyntaxFacts } from './facts.js';
import { pythonFacts } from './python.js';

export type FactsProvider = (path: string, language: string, text: string) => Promise<SyntaxFacts | undefined>;

export function syntaxFacts(root: string, languages: readonly string[], paths: readonly string[]): FactsProvider {
  const python = languages.includes('python') ? pythonFacts(root, paths) : undefined;
  let typescript: Promise<typeof import('./typescript.js')> | undefined;
  return async (path, language, text) => {
    if (language === 'python') return (await python)?.facts.get(path);
    if (language === 'typescript' || language === 'javascript') {
      typescript ??= import('./typescript.js');
      return (await typescript).typescriptFacts(path, text);
    }
    return undefined;
  };
}
