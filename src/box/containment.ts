/**
 * Which box this machine can make, found once per environment: bubblewrap
 * where it is installed and works (user namespaces allowed), else Landlock
 * (kernel 5.13+, applied by lspq's own binary before it starts the
 * program: no namespaces needed, so it works inside containers), else none,
 * and then the untrusted allowlists hold (said once per daemon, and in
 * `lspq servers` and `trust --explain`). LSPQ_BOX chooses: `bubblewrap`,
 * `landlock` or `off`.
 */
import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

type Env = Record<string, string | undefined>;

export type BoxKind = 'bubblewrap' | 'landlock' | 'seatbelt';

export type Containment =
  | { kind: 'bubblewrap'; bwrap: string }
  | { kind: 'landlock'; abi: number }
  /** macOS's sandbox-exec: written, not yet run by the suite (docs/security.md). */
  | { kind: 'seatbelt'; sandboxExec: string };

/** What this machine can make, or why none: the words `lspq servers` and `trust --explain` say. */
export type BoxFinding = { box: Containment } | { none: string };

const findings = new Map<string, BoxFinding>();

/** bubblewrap on the user's PATH (absolute entries: never a workspace's `./bwrap`). */
function bwrapOnPath(env: Env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const path = join(dir, 'bwrap');
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Whether bubblewrap can make a box here: a kernel or container that forbids namespaces makes it fail at once. */
function bwrapWorks(bwrap: string): boolean {
  try {
    const r = Bun.spawnSync(
      [bwrap, '--die-with-parent', '--unshare-user-try', '--unshare-net', '--ro-bind', '/', '/', '--', 'true'],
      { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore', timeout: 5_000, env: { PATH: '/usr/bin:/bin' } },
    );
    return r.exitCode === 0;
  } catch {
    return false;
  }
}

function find(env: Env): BoxFinding {
  const asked = env.LSPQ_BOX;
  if (asked === 'off') return { none: 'LSPQ_BOX=off' };
  if (asked !== 'landlock') {
    const bwrap = bwrapOnPath(env);
    if (bwrap && bwrapWorks(bwrap)) return { box: { kind: 'bubblewrap', bwrap } };
    if (asked === 'bubblewrap')
      return {
        none: bwrap ? `bubblewrap (${bwrap}) cannot make a namespace here` : 'bubblewrap is not installed (bwrap)',
      };
  }
  // Loaded only here: bun:ffi and libc are for a machine without bubblewrap.
  const { landlockAbi } = require('./landlock') as typeof import('./landlock');
  const abi = landlockAbi();
  if (abi > 0) return { box: { kind: 'landlock', abi } };
  const bubblewrap = bwrapOnPath(env) ? 'bubblewrap cannot make a namespace here' : 'bubblewrap is not installed';
  return { none: `${bubblewrap}, and the kernel has no Landlock (5.13+)` };
}

/** macOS: sandbox-exec, the system's own, where it is (it is deprecated, not gone). */
function seatbelt(env: Env): BoxFinding {
  if (env.LSPQ_BOX === 'off') return { none: 'LSPQ_BOX=off' };
  const sandboxExec = '/usr/bin/sandbox-exec';
  return existsSync(sandboxExec) ? { box: { kind: 'seatbelt', sandboxExec } } : { none: 'no /usr/bin/sandbox-exec' };
}

/** The box for programs started with `env`: found once per PATH and LSPQ_BOX. */
export function containmentFor(env: Env): BoxFinding {
  const key = `${env.LSPQ_BOX ?? ''}\0${env.PATH ?? ''}`;
  const known = findings.get(key);
  if (known) return known;
  const found =
    process.platform === 'linux'
      ? find(env)
      : process.platform === 'darwin'
        ? seatbelt(env)
        : { none: `no box is made on ${process.platform} yet` };
  if (findings.size > 16) findings.clear();
  findings.set(key, found);
  return found;
}

/** The words for a finding: `contained (bubblewrap)` or `not contained: why`. */
export const findingWords = (f: BoxFinding) =>
  'box' in f ? `contained (${boxWords(f.box)})` : `not contained: ${f.none}`;

function boxWords(box: Containment): string {
  if (box.kind === 'bubblewrap') return `bubblewrap, ${box.bwrap}`;
  if (box.kind === 'landlock') return `Landlock ABI ${box.abi}`;
  return 'sandbox-exec, untested';
}
