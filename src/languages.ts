// Which language a file is written in, by its extension; which languages
// sextant parses itself.

/** The languages sextant parses itself for their syntax facts (syntax/typescript.ts). */
export const PARSED_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'javascript']);

/** A file's language by its extension. */
const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  scala: 'scala',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  dart: 'dart',
  sh: 'shell',
  lua: 'lua',
};

export function languageOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()];
}

/** Files per language, languages sorted by name. */
export function countLanguages(paths: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of paths) {
    const language = languageOf(p);
    if (language) counts[language] = (counts[language] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}
