/**
 * Payloads that try every way out of a box when they run, and what shows
 * whether any worked: a file written outside the workspace, one written in
 * it, a secret planted in the user's home read, a TCP port the test
 * listens on reached, the daemon's Unix socket reached. Each payload also
 * leaves `ran-NAME` in its own TMPDIR, so a test knows it ran (in the box,
 * its TMPDIR is the box's scratch, under the test's cache folder).
 */
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EscapeTargets {
  /** Where a payload that escaped writes (outside every workspace). */
  marks: string;
  /** A secret in the test's fake home. */
  secret: string;
  /** The fake home itself (the test's HOME). */
  home: string;
  /** The project: a payload that can write there leaves `pwned-NAME`. */
  project: string;
  /** The TCP port the test listens on. */
  port: number;
  /** The daemon's socket. */
  socket: string;
}

/** A fake home with a secret in it, a marks folder, and a TCP listener that records what reaches it. */
export async function escapeTargets(base: string, project: string, socket: string) {
  const home = join(base, 'home');
  const marks = join(base, 'escaped');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(marks, { recursive: true });
  const secret = join(home, '.ssh', 'id_ed25519');
  writeFileSync(secret, 'THE-SECRET\n');
  const reached: string[] = [];
  const listener = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      data(_s, data) {
        reached.push(data.toString().trim());
      },
      open() {
        reached.push('connected');
      },
    },
  });
  const targets: EscapeTargets = { marks, secret, home, project, port: listener.port, socket };
  return { targets, reached, stop: () => listener.stop(true) };
}

const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A shell payload named `name` that tries every way out, then runs `then` (the real program) so answers stay right. */
export function shPayload(t: EscapeTargets, name: string, then?: string): string {
  return `#!/bin/sh
( : > "\${TMPDIR:-/tmp}/ran-${name}" ) 2>/dev/null
( : > ${q(join(t.marks, `outside-${name}`))} ) 2>/dev/null
( : > ${q(join(t.project, `pwned-${name}`))} ) 2>/dev/null
( cat ${q(t.secret)} > "\${TMPDIR:-/tmp}/secret-${name}" || rm -f "\${TMPDIR:-/tmp}/secret-${name}" ) 2>/dev/null
( cat ${q(t.secret)} > ${q(join(t.marks, `secret-${name}`))} ) 2>/dev/null
/bin/bash -c 'echo ${name} > /dev/tcp/127.0.0.1/${t.port}' 2>/dev/null
${then ? `exec ${q(then)} "$@"` : 'exit 0'}
`;
}

/** The same payload in JavaScript, for what node loads (a tsserver, a plugin, a configuration). */
export function jsPayload(t: EscapeTargets, name: string): string {
  return `;(() => {
  const fs = require('node:fs'), path = require('node:path'), os = require('node:os');
  const tmp = process.env.TMPDIR || os.tmpdir();
  const tryIt = (f) => { try { f(); } catch {} };
  tryIt(() => fs.writeFileSync(path.join(tmp, ${JSON.stringify(`ran-${name}`)}), ''));
  tryIt(() => fs.writeFileSync(${JSON.stringify(join(t.marks, `outside-${name}`))}, ''));
  tryIt(() => fs.writeFileSync(${JSON.stringify(join(t.project, `pwned-${name}`))}, ''));
  tryIt(() => fs.writeFileSync(path.join(tmp, ${JSON.stringify(`secret-${name}`)}), fs.readFileSync(${JSON.stringify(t.secret)})));
  tryIt(() => { const s = require('node:net').connect(${t.port}, '127.0.0.1'); s.on('error', () => {}); s.end(${JSON.stringify(name)}); });
  tryIt(() => { const s = require('node:net').connect(${JSON.stringify(t.socket)}); s.on('error', () => {}); s.on('connect', () => fs.writeFileSync(path.join(tmp, ${JSON.stringify(`socket-${name}`)}), '')); });
})();
`;
}

/** What the payloads left in the boxes' scratch folders under the cache folder: `ran-NAME`, `secret-NAME`, ... */
export function leftInBoxes(cache: string): string[] {
  const boxes = join(cache, 'lspq', 'box');
  const found: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(boxes);
  } catch {
    return [];
  }
  for (const box of names) {
    try {
      for (const f of readdirSync(join(boxes, box, 'tmp'))) if (/^(ran|secret|socket)-/.test(f)) found.push(f);
    } catch {}
  }
  return [...new Set(found)].sort();
}

/** What escaped: files written outside or in the workspace. */
export function escaped(t: EscapeTargets): string[] {
  const inProject = readdirSync(t.project).filter((f) => f.startsWith('pwned-'));
  return [...readdirSync(t.marks), ...inProject].sort();
}

export const realTmp = (p: string) => realpathSync(p);
