/**
 * The one way a program lspq starts for a workspace not trusted is put in
 * its box: the argv and environment to spawn, whichever box this machine
 * makes. Servers, indexers, `go list`, git (lspq's own calls and `lspq
 * git`) all come here.
 */
import { lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { selfArgv } from '../bundles';
import { cacheFolder } from '../common/user-folders';
import { bubblewrapArgs, type PathKind } from './bubblewrap';
import type { Containment } from './containment';
import { boxEnv, scratchFolders } from './environment';
import { boxArgv } from './landlock';
import { type BoxedProgram, rulesFor } from './rules-for';
import { seatbeltProfile } from './seatbelt';

type Env = Record<string, string | undefined>;

export interface BoxRequest {
  /** What runs, in words for its scratch's name: a server's id, `git`, an indexer. */
  purpose: string;
  root: string;
  binary?: string;
  cwd: string;
  /** The caller's environment with what lspq set for the program. */
  env: Env;
  read?: string[];
  write?: string[];
  network?: boolean;
  /** git's own variables pass (a git call). */
  git?: boolean;
  /** How lspq runs itself, for Landlock's `__box`: this process's binary unless said (a benchmark run by bun). */
  self?: string[];
}

export interface BoxedCommand {
  argv: string[];
  env: Record<string, string>;
  /** Its private writable folder (HOME and TMPDIR lie in it). */
  scratch: string;
}

/** A private scratch per program and workspace: one workspace's program never reads what another's wrote. */
export function scratchFor(purpose: string, root: string, env: Env): string {
  const name = `${purpose.replace(/[^\w.-]/g, '_')}-${Bun.hash(root).toString(16)}`;
  const scratch = join(cacheFolder(env), 'box', name);
  const { home, tmp } = scratchFolders(scratch);
  for (const dir of [home, tmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return scratch;
}

const kindOf = (path: string): PathKind => {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return { link: readlinkSync(path) };
    return st.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
};

/** `argv` as it runs in the box. */
export function boxed(argv: readonly string[], box: Containment, r: BoxRequest): BoxedCommand {
  const scratch = scratchFor(r.purpose, r.root, r.env);
  const program: BoxedProgram = {
    root: r.root,
    scratch,
    env: r.env,
    ...(r.binary ? { binary: r.binary } : {}),
    ...(r.read ? { read: r.read } : {}),
    ...(r.write ? { write: r.write } : {}),
    ...(r.network ? { network: true } : {}),
  };
  const rules = rulesFor(program);
  const env = boxEnv(r.env, { scratch, ...(r.git ? { git: true } : {}), ...(r.network ? { network: true } : {}) });
  if (box.kind === 'bubblewrap')
    return { argv: [box.bwrap, ...bubblewrapArgs(rules, argv, r.cwd, kindOf)], env, scratch };
  if (box.kind === 'seatbelt')
    return { argv: [box.sandboxExec, '-p', seatbeltProfile(rules, r.env.HOME), ...argv], env, scratch };
  return { argv: boxArgv(r.self ?? selfArgv(), rules, [...argv]), env, scratch };
}
