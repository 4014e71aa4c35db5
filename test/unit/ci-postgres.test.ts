// `.ci/postgres` is how `npm test` gets its Postgres URL: `$(bash .ci/postgres)`.
// A command substitution returns when every holder of its pipe has closed it,
// and the server the script starts lives on: if the server inherits the pipe,
// the substitution never returns (CI ran into its time limit that way, on a
// machine where Postgres was stopped). The Postgres tools are stood in for by
// scripts on PATH whose "server" is a process that keeps every descriptor it
// inherits, as a daemon does; the real tools run in CI itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PROJECT_ROOT } from '../support/paths.js';
import { removeDir, tempDir } from '../support/repos.js';

const dir = tempDir('sextant-ci-postgres-');
const bin = join(dir, 'bin');
const state = join(dir, 'state');
after(() => {
  // The stand-in server: ended here, whatever the script did.
  const pid = existsSync(join(state, 'server.pid')) ? Number(readFileSync(join(state, 'server.pid'), 'utf8')) : 0;
  if (pid) {
    try {
      process.kill(pid);
    } catch {
      // already gone
    }
  }
  removeDir(dir);
});

const tool = (name: string, body: string) => {
  writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
};

mkdirSync(bin);
mkdirSync(state);
tool(
  'pg_lsclusters',
  `status=down; [ -e "${state}/online" ] && status=online
echo "15  main    5432 $status postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log"`,
);
// Starts a long-lived process holding whatever descriptors it was given, then returns.
tool('pg_ctlcluster', `sleep 300 & echo $! > "${state}/server.pid"; touch "${state}/online"; echo "started"`);
tool('pg_createcluster', 'exit 0');
tool('pg_isready', `[ -e "${state}/online" ]`);
tool('psql', 'cat > /dev/null');
// Run as root or not, the script goes through one of these to act as postgres.
tool('runuser', 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"');
tool('sudo', 'while [ "${1#-}" != "$1" ]; do [ "$1" = "-u" ] && shift; shift; done; exec "$@"');
// Where Postgres 15's contrib is missing, the script installs it: nothing to install here.
tool('apt-get', 'exit 0');

test('`$(bash .ci/postgres)` returns with the URL once it has started a server that outlives it', async () => {
  const script = join(PROJECT_ROOT, '.ci', 'postgres');
  const child = spawn('bash', ['-c', `url=$(bash "${script}") && echo "url=$url"`], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  // Far beyond what the script takes; it would wait the stand-in's 300 s if the pipe were held.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  assert.equal(code, 0, `the command substitution did not return (stderr: ${stderr.trim()})`);
  // Killed, its output pipes would stay open as long as the stand-in holds them: only a clean exit waits for them.
  await closed;
  assert.equal(stdout.trim(), 'url=postgres://sextant_test:sextant_test@127.0.0.1:5432/postgres');
  assert.ok(existsSync(join(state, 'server.pid')), 'the script started the server');
  // What the tools print goes to stderr, never into the captured URL.
  assert.match(stderr, /started/);
});
