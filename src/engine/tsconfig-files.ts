/**
 * The files a TypeScript project checks, as tsc reads its tsconfig (files,
 * include, exclude, extends, and the projects it references), for diag
 * --all: asked of the TypeScript 7 binary the server already runs
 * (`tsc --showConfig -p CONFIG`, in the server's box where it has one),
 * never of the project's own tsc, and each config in a process of its own
 * so the daemon goes on answering. A source file git lists is checked
 * where a tsconfig at or above it takes it in, or where none is above it
 * (the server's defaults check it, where tsc -p would not: said); one that
 * its tsconfigs leave out (a test folder they exclude) is left out, as tsc
 * leaves it, and said.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { boxed } from '../box/command';
import type { Session } from '../lsp/manager';

/** How long one config's answer is waited for: beyond it, git's list is checked as it is (and said). */
const SHOW_CONFIG_MS = 15_000;
/** Configs asked at once. */
const AT_ONCE = 8;
const CONFIGS = ['tsconfig.json', 'jsconfig.json'];

const ShownConfig = z.object({
  files: z.optional(z.array(z.string())),
  references: z.optional(z.array(z.object({ path: z.string() }))),
});

/** What tsc's set made of git's list: the files to check, and where it differs from what git lists. */
export interface ProjectSet {
  files: string[];
  /** Sources git lists that their tsconfigs do not take in, each with the nearest tsconfig: not checked, as by tsc. */
  leftOut: { path: string; config: string }[];
  /** Sources under no tsconfig: checked with the server's defaults, which tsc -p would not check. */
  loose: string[];
  /** Configs whose files could not be read: their folders' files are checked as git lists them. */
  unread: string[];
}

/** A config's own files and its references' configs, from `tsc --showConfig`; undefined where it did not answer. */
async function showConfig(
  session: Session,
  config: string,
  env: Record<string, string>,
): Promise<{ files: string[]; references: string[] } | undefined> {
  const dir = dirname(config);
  const argv = [session.binary, '--showConfig', '-p', config];
  const box = session.client.spec.contained;
  const run = box
    ? boxed(argv, box, {
        purpose: session.client.spec.id,
        root: session.client.root,
        binary: session.binary,
        cwd: dir,
        env,
      })
    : { argv, env };
  try {
    const proc = Bun.spawn(run.argv, {
      cwd: dir,
      env: run.env,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'ignore',
      timeout: SHOW_CONFIG_MS,
    });
    const [out, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    if (exit !== 0) return undefined;
    const shown = ShownConfig.safeParse(JSON.parse(out));
    if (!shown.success) return undefined;
    return {
      files: (shown.data.files ?? []).map((f) => resolve(dir, f)),
      // A reference names a config file or the folder of its tsconfig.json.
      references: (shown.data.references ?? []).map((r) => {
        const path = resolve(dir, r.path);
        return path.endsWith('.json') ? path : join(path, 'tsconfig.json');
      }),
    };
  } catch {
    return undefined;
  }
}

/** The configs at or above `file` up to `root`, nearest first. */
function configsAbove(file: string, root: string, found: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    let here = found.get(dir);
    if (here === undefined) {
      here = CONFIGS.map((c) => join(dir, c)).filter((p) => existsSync(p));
      found.set(dir, here);
    }
    out.push(...here);
    if (dir === root || !dir.startsWith(`${root}/`)) return out;
  }
}

/**
 * tsc's set over `listed` (git's sources under `root`): each config's files
 * with those of the projects it references; `isSource` keeps out what is
 * no source among the files a config adds that git does not list.
 */
export async function projectSet(
  session: Session,
  root: string,
  listed: string[],
  env: Record<string, string>,
  isSource: (path: string) => boolean,
): Promise<ProjectSet> {
  const found = new Map<string, string[]>();
  const above = new Map(listed.map((f) => [f, configsAbove(f, root, found)]));
  const shown = new Map<string, { files: string[]; references: string[] } | undefined>();
  let wanted = [...new Set([...above.values()].flat())];
  // Referenced configs are asked in turn, each once.
  while (wanted.length > 0) {
    for (let i = 0; i < wanted.length; i += AT_ONCE) {
      const slice = wanted.slice(i, i + AT_ONCE);
      const answers = await Promise.all(slice.map(async (c) => [c, await showConfig(session, c, env)] as const));
      for (const [c, answer] of answers) shown.set(c, answer);
    }
    wanted = [
      ...new Set([...shown.values()].flatMap((s) => s?.references ?? []).filter((c) => !shown.has(c) && existsSync(c))),
    ];
  }
  const closure = new Map<string, Set<string>>();
  const filesOf = (config: string, seen = new Set<string>()): Set<string> => {
    const known = closure.get(config);
    if (known) return known;
    seen.add(config);
    const s = shown.get(config);
    const all = new Set(s?.files ?? []);
    for (const r of s?.references ?? []) if (!seen.has(r)) for (const f of filesOf(r, seen)) all.add(f);
    closure.set(config, all);
    return all;
  };
  const unread = [...shown].filter(([, s]) => s === undefined).map(([c]) => c);
  const files = new Set<string>();
  const leftOut: ProjectSet['leftOut'] = [];
  const loose: string[] = [];
  for (const [file, configs] of above) {
    const [nearest] = configs;
    if (nearest === undefined) {
      loose.push(file);
      files.add(file);
    } else if (configs.some((c) => shown.get(c) === undefined || filesOf(c).has(file))) files.add(file);
    else leftOut.push({ path: file, config: nearest });
  }
  // What a config takes in that git does not list (generated sources git ignores): tsc checks it too.
  for (const config of shown.keys())
    for (const f of filesOf(config))
      if (f.startsWith(`${root}/`) && !f.includes('/node_modules/') && isSource(f) && existsSync(f)) files.add(f);
  return { files: [...files].sort(), leftOut, loose, unread };
}
