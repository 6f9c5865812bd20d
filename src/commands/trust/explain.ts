/**
 * `lspq trust --explain`: what trusting a repository would let run, read
 * from what the repository ships (git's tracked files; outside a checkout,
 * its files), so a user can look before trusting. Runs nothing of it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILTIN_SERVERS } from '../../lsp/servers/registry';
import type { ServerSpec } from '../../lsp/servers/spec';
import { checkoutOf, gitProbeEnv } from '../../project/checkout';
import { runGitSync } from '../../git/run';

export interface WouldRun {
  /** What runs: a server, a program, a configuration, an index. */
  what: string;
  /** The files of the repository that make it run, from its top. */
  files: string[];
}

const MAX_FILES = 200_000;
const SKIPPED = new Set(['.git', 'target']);

/** The repository's own files, by path from its top: what git tracks in a checkout git vouches for, else every file. */
export function shippedFiles(top: string, env: Record<string, string | undefined>): string[] {
  const checkout = checkoutOf(top, env);
  if (checkout?.vouched) {
    const r = runGitSync(['ls-files', '-z'], { cwd: top, env: gitProbeEnv(env), timeoutMs: 30_000 });
    if (r?.exit === 0) return r.stdout.split('\0').filter(Boolean);
  }
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 12 || out.length >= MAX_FILES) return;
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      try {
        if (statSync(path).isDirectory()) walk(path, depth + 1);
        else out.push(relative(top, path));
      } catch {}
    }
  };
  walk(top, 0);
  return out;
}

const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const servesAny = (spec: ServerSpec, files: string[]) =>
  files.filter((f) => {
    const name = base(f);
    const dot = name.lastIndexOf('.');
    return spec.languages[name] !== undefined || (dot > 0 && spec.languages[name.slice(dot)] !== undefined);
  });

/** Each thing trust would let run, with the repository files behind it (a few named, the rest counted). */
export function wouldRun(files: string[], servers: ServerSpec[] = BUILTIN_SERVERS): WouldRun[] {
  const out: WouldRun[] = [];
  const add = (what: string, found: string[]) => {
    if (found.length > 0) out.push({ what, files: found });
  };
  add(
    'the servers and settings of its .lsp.json',
    files.filter((f) => base(f) === '.lsp.json'),
  );
  add(
    'programs it carries that lspq would start (node_modules/.bin, a Python environment)',
    files.filter((f) => /(^|\/)node_modules\/\.bin\/[^/]+$|(^|\/)\.?venv\/bin\/[^/]+$/.test(f)),
  );
  add(
    'its own TypeScript (node_modules/typescript), run by typescript-language-server with the plugins its tsconfig names',
    files.filter((f) => /(^|\/)node_modules\/typescript\/lib\/tsserver\.js$/.test(f)),
  );
  add(
    "its own index (answers taken as the repository's word)",
    files.filter((f) => /(^|\/)\.lspq\/(index\.scip|fetched\.json)$/.test(f)),
  );
  for (const spec of servers) {
    const code = spec.workspaceCode;
    // typescript-language-server's only difference is the TypeScript it runs: said above, where the repository ships one.
    if (!code || 'why' in code || (code.untrusted !== 'refuse' && code.untrusted.userTypeScript)) continue;
    // A server counts where the repository has files of its languages, and (ESLint, Tailwind) its configuration.
    const served = servesAny(spec, files);
    const markers = spec.needsMarker ? files.filter((f) => spec.rootMarkers.flat().includes(base(f))) : [];
    if (served.length === 0 || (spec.needsMarker && markers.length === 0)) continue;
    const theirs = [...markers, ...served];
    const refusedWith = code.untrusted !== 'refuse' ? (code.untrusted.refuseWith ?? []) : [];
    const risky = files.filter((f) => refusedWith.some((r) => f === r || f.endsWith(`/${r}`)));
    add(`${spec.id}: ${code.runs}`, [...risky, ...theirs]);
  }
  return out;
}
