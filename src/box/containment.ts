/**
 * Which box this machine can make, found once per environment: bubblewrap
 * where it is installed and works (user namespaces allowed), else Landlock
 * (kernel 5.13+, applied by lspq's own binary before it starts the
 * program: no namespaces needed, so it works inside containers), else none,
 * and then the untrusted allowlists hold (said once per daemon, and in
 * `lspq servers` and `trust --explain`). LSPQ_BOX chooses: `bubblewrap`,
 * `landlock` or `off`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { isRecord } from '../common/records';
import { cacheFolder } from '../common/user-folders';

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

/**
 * Whether bubblewrap can make a box here: a kernel or container that
 * forbids namespaces makes it fail at once. Asked once per binary, kernel
 * and boot, and remembered in the user's cache (a one-shot `lspq git`
 * would pay the probe's start each time).
 */
function bwrapWorks(bwrap: string, env: Env): boolean {
  const key = probeKey(bwrap);
  const file = join(cacheFolder(env), 'bubblewrap-works.json');
  try {
    const known: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isRecord(known) && known.key === key && typeof known.works === 'boolean') return known.works;
  } catch {}
  const works = probeBwrap(bwrap);
  try {
    mkdirSync(dirname(file), { recursive: true });
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, JSON.stringify({ key, works }), { flag: 'wx', mode: 0o600 });
    renameSync(part, file);
  } catch {}
  return works;
}

/** What the probe's answer depends on: the binary as it is, the kernel, and this boot. */
function probeKey(bwrap: string): string {
  let binary = bwrap;
  try {
    const st = statSync(bwrap);
    binary = `${bwrap}:${st.size}:${st.mtimeMs}`;
  } catch {}
  let boot = '';
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {}
  return `${binary}\0${release()}\0${boot}`;
}

function probeBwrap(bwrap: string): boolean {
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
    if (bwrap && bwrapWorks(bwrap, env)) return { box: { kind: 'bubblewrap', bwrap } };
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
