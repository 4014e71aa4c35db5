// Reference kinds, function extents and imported modules for Python, from
// python3's own ast module, run once over all Python files of a repository
// (beside scip-python, which needs python3 too).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { projectFile } from '../paths.js';
import { SyntaxFacts } from './facts.js';

const SCRIPT = projectFile('src', 'syntax', 'python_refs.py');

export interface PythonFactsResult {
  facts: Map<string, SyntaxFacts>;
  /** Why some or all files have no facts, when that happened. */
  problems: string[];
}

/** Parses `paths` (relative to `root`) with python3; never rejects. */
export function pythonFacts(root: string, paths: readonly string[], python = 'python3'): Promise<PythonFactsResult> {
  return new Promise((resolve) => {
    const facts = new Map<string, SyntaxFacts>();
    const problems: string[] = [];
    const byAbsolute = new Map(paths.map((p) => [join(root, p), p]));
    const child = spawn(python, [SCRIPT], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const record = JSON.parse(line) as {
        path: string;
        kinds?: [number, number, number][];
        defs?: [number, number, number, number, number, number][];
        modules?: [number, number, string][];
        error?: string;
      };
      const relative = byAbsolute.get(record.path);
      if (relative === undefined) return;
      if (record.error !== undefined || !record.kinds) {
        problems.push(`${relative}: ${record.error ?? 'no result'}`);
        return;
      }
      const f = new SyntaxFacts();
      for (const [l, c, k] of record.kinds) f.setKind(l, c, k);
      for (const [l, c, ...extent] of record.defs ?? []) {
        f.setDeclaration(l, c, { extent: extent as [number, number, number, number], callable: true, heritage: [] });
      }
      for (const [l, c, module] of record.modules ?? []) f.setImportedModule(l, c, module);
      facts.set(relative, f);
    });
    child.on('error', (error) => {
      problems.push(`${python} could not run (${error.message}): Python references have no kinds`);
      resolve({ facts, problems });
    });
    child.on('close', (code) => {
      if (code !== 0) problems.push(`${python} exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`);
      resolve({ facts, problems });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from([...byAbsolute.keys()].map((p) => p + '\0').join('')));
  });
}
