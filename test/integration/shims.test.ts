/**
 * A server that is only a shim: rustup puts a `rust-analyzer` proxy on PATH
 * whether or not the toolchain has the component, and run without it the
 * proxy prints an error. lspq asks rustup before it counts the proxy as the
 * server: missing, with `rustup component add rust-analyzer`, never a
 * backtrace's last line. PATH is built here: a proxy whose rustup says the
 * component is not installed, then the tests' own tools (without
 * rust-analyzer), so the answer is the same on any machine.
 */
import { afterAll, expect, test } from 'bun:test';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const base = mkdtempSync(join(tmpdir(), 'lspq-shim-'));
const bin = join(base, 'bin');
mkdirSync(bin);
// rustup's answer for a component the toolchain lacks.
writeFileSync(
  join(bin, 'rustup'),
  "#!/bin/sh\necho \"error: 'rust-analyzer' is not installed for the toolchain 'stable-x86_64-unknown-linux-gnu'\" >&2\nexit 1\n",
);
chmodSync(join(bin, 'rustup'), 0o755);
symlinkSync(join(bin, 'rustup'), join(bin, 'rust-analyzer'));
const project = join(base, 'rust-shapes');
cpSync(join(FIXTURES, 'rust-shapes'), project, { recursive: true });
const PATH = [bin, '/usr/local/bin', '/usr/bin', '/bin'].join(':');

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

test('a question: rust-analyzer is missing, with the rustup command that installs it (exit 3), asked twice', async () => {
  for (let i = 0; i < 2; i++) {
    const r = await lspq.run(['def', 'src/main.rs:13:total_area'], { cwd: project, env: { PATH } });
    expect(r).toEqual({
      stdout: '',
      stderr: `lspq: rust-analyzer is not installed (needed for ${join(project, 'src/main.rs')}); install it: rustup component add rust-analyzer\n`,
      exit: 3,
    });
  }
});

test('lspq servers lists it as missing', async () => {
  const r = await lspq.json<{ servers: { id: string; found: boolean }[] }>(['servers'], {
    cwd: project,
    env: { PATH },
  });
  expect(r.servers.find((s) => s.id === 'rust-analyzer')?.found).toBe(false);
});
