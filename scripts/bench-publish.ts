// The publish section of `npm run bench` (issue 9): `sextant publish` of
// scip-typescript's raw index of rxjs, against the time to decode that file
// (stream every field, decode every document: the least any publish must
// do), each in a process of its own. Each round decodes, then publishes into a fresh registry with --root
// and without it, back to back, so the ratios of a round share the load.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rxjsRepo } from '../test/support/corpus.js';
import { PROJECT_ROOT, SEXTANT_BIN } from '../test/support/paths.js';
import { removeDir, tempDir } from '../test/support/repos.js';

type Table = (rows: (string | number)[][], header: string[]) => string;

/** Decoding the file in a process of its own, as a publish runs in one: start-up and protobufjs's schema load included. */
export function decodeMs(file: string): number {
  const dist = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'scip')).href;
  const script = `
    const { readIndexFields } = await import('${dist}/stream.js');
    const { decodeDocument, decodeMetadata } = await import('${dist}/decode.js');
    for await (const field of readIndexFields(process.argv[1])) {
      if (field.field === 1) decodeMetadata(field.bytes);
      else if (field.field === 2) decodeDocument(field.bytes);
    }`;
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { encoding: 'utf8' });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`decoding failed: ${r.stderr}`);
  return ms;
}

function publishMs(file: string, commit: string, root: string | undefined): number {
  const home = tempDir('sextant-bench-publish-');
  try {
    const args = [SEXTANT_BIN, 'publish', file, '--repo', 'rxjs', '--commit', commit, '--json', ...(root ? ['--root', root] : [])];
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, SEXTANT_HOME: home, SEXTANT_REGISTRY: '' }, encoding: 'utf8' });
    const ms = performance.now() - started;
    if (r.status !== 0) throw new Error(`sextant publish failed: ${r.stderr}`);
    return ms;
  } finally {
    removeDir(home);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchPublish(runs: number, json: boolean, progress: (message: string) => void, table: Table): Promise<void> {
  const root = rxjsRepo();
  const scip = tempDir('sextant-bench-scip-');
  try {
    progress('(p) scip-typescript on rxjs…');
    const file = join(scip, 'index.scip');
    execFileSync(
      join(PROJECT_ROOT, 'node_modules', '.bin', 'scip-typescript'),
      ['index', '--cwd', root, '--output', file, '--no-progress-bar'],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const rounds: { decode: number; withRoot: number; without: number }[] = [];
    for (let i = 0; i < runs; i++) {
      progress(`(p) round ${i + 1} of ${runs}…`);
      rounds.push({ decode: decodeMs(file), withRoot: publishMs(file, commit, root), without: publishMs(file, commit, undefined) });
    }
    const section = {
      corpus: 'rxjs@7.8.2 (scip-typescript)',
      rounds,
      decode_ms: median(rounds.map((r) => r.decode)),
      publish_root_ms: median(rounds.map((r) => r.withRoot)),
      publish_no_root_ms: median(rounds.map((r) => r.without)),
      ratio_root: median(rounds.map((r) => r.withRoot / r.decode)),
      ratio_no_root: median(rounds.map((r) => r.without / r.decode)),
      load_average: loadavg()[0],
      cpus: cpus().length,
    };
    if (json) {
      process.stdout.write(JSON.stringify({ only: 'publish', publish: section }) + '\n');
      return;
    }
    process.stdout.write(
      [
        `sextant bench — section (p) publish alone; ${section.cpus} CPUs, load ${section.load_average!.toFixed(1)}; ${section.corpus}, median of ${runs}`,
        table(
          [
            ['decode the file (stream + protobuf, whole process)', Math.round(section.decode_ms), '1'],
            ['sextant publish --root (whole process)', Math.round(section.publish_root_ms), section.ratio_root.toFixed(1)],
            ['sextant publish, no root (whole process)', Math.round(section.publish_no_root_ms), section.ratio_no_root.toFixed(1)],
          ],
          ['', 'ms', '÷ decode'],
        ),
      ].join('\n') + '\n',
    );
  } finally {
    removeDir(scip);
    removeDir(join(root, '..'));
  }
}
