/**
 * Real edits, drawn by a seed, as unified diffs: a rename and a code
 * action made by the server itself (`lspq rename --dry-run`, `lspq actions
 * --apply N --dry-run`), a signature changed (a parameter added in front)
 * and an export deleted, by hand. Each is checked twice: `diag --patch`
 * before it is written, then `diag --since HEAD~1 --all` once it is
 * committed; the two answers must be the same diagnostics. The suite runs a
 * few (patch-since.test.ts), bench/patch.ts a hundred on immer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { seeded } from './seeded-random';

export type Run = (args: string[], stdin?: string) => Promise<{ stdout: string; stderr: string; exit: number }>;

export interface Edit {
  kind: 'rename' | 'action' | 'signature' | 'unexport';
  /** What it does, for a report: `rename src/a.ts:3:foo -> bar`. */
  what: string;
  patch: string;
}

/** A language's declarations and how a hand edit changes one. */
export interface Language {
  /** An exported function's line: the name is its first group. */
  exported: RegExp;
  /** The line with a parameter added in front. */
  addParameter: (line: string, name: string) => string;
  /** The line no longer exported; undefined where the language cannot say it (Go: a lower-case name is a rename). */
  unexport?: (line: string) => string;
  /** The code action kind to ask for at a declaration. */
  actionKind: string;
}

export const TYPESCRIPT: Language = {
  exported: /^export (?:async )?function (\w+)\s*[(<]/,
  addParameter: (line, name) => line.replace(`${name}(`, `${name}(added: number, `).replace(', )', ')'),
  unexport: (line) => line.replace(/^export /, ''),
  actionKind: 'refactor',
};

export const GO: Language = {
  exported: /^func ([A-Z]\w*)\(/,
  addParameter: (line, name) => line.replace(`${name}(`, `${name}(added int, `).replace(', )', ')'),
  actionKind: 'refactor',
};

interface Declaration {
  file: string;
  line: number;
  name: string;
  text: string;
}

function declarations(root: string, files: string[], lang: Language): Declaration[] {
  return files.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, i) => {
        const name = lang.exported.exec(text)?.[1];
        return name ? [{ file, line: i + 1, name, text }] : [];
      }),
  );
}

/** A file's hand edit as git writes it. */
function handPatch(root: string, file: string, line: number, replace: (text: string) => string): string {
  const before = readFileSync(join(root, file), 'utf8');
  const lines = before.split('\n');
  lines[line - 1] = replace(lines[line - 1]!);
  const after = lines.join('\n');
  return before === after ? '' : createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after);
}

/**
 * `count` edits of the declarations in `files` (relative to `root`), drawn
 * by `seed`; a rename's new name is now and then another declaration's, so
 * that some renames break what they touch.
 */
export async function seededEdits(
  root: string,
  files: string[],
  lang: Language,
  run: Run,
  seed: number,
  count: number,
): Promise<Edit[]> {
  const next = seeded(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const decls = declarations(root, files, lang);
  const edits: Edit[] = [];
  for (let tries = 0; edits.length < count && tries < count * 4; tries++) {
    const d = pick(decls);
    const at = `${d.file}:${d.line}:${d.name}`;
    const kind = pick(['rename', 'rename', 'signature', 'unexport', 'action'] as const);
    if (kind === 'rename') {
      const clash = next() < 0.3 ? decls.find((o) => o.file === d.file && o.name !== d.name)?.name : undefined;
      const name = clash ?? `${d.name}${Math.floor(next() * 100)}`;
      const r = await run(['rename', at, name, '--dry-run']);
      if (r.exit === 0 && r.stdout) edits.push({ kind, what: `rename ${at} -> ${name}`, patch: r.stdout });
    } else if (kind === 'signature') {
      const patch = handPatch(root, d.file, d.line, (t) => lang.addParameter(t, d.name));
      if (patch) edits.push({ kind, what: `a parameter added to ${at}`, patch });
    } else if (kind === 'unexport' && lang.unexport) {
      const patch = handPatch(root, d.file, d.line, lang.unexport);
      if (patch) edits.push({ kind, what: `${at} no longer exported`, patch });
    } else if (kind === 'action') {
      // Listed whole and chosen by kind here: TypeScript 7 answered `only: ["refactor"]` with none of its refactor.* ones.
      const listed = await run(['actions', `${d.file}:${d.line}`, '--json']);
      const actions =
        listed.exit === 0
          ? (JSON.parse(listed.stdout) as { actions: { index: number; kind: string; title: string }[] }).actions.filter(
              (a) => a.kind.startsWith(lang.actionKind),
            )
          : [];
      if (actions.length === 0) continue;
      const a = pick(actions);
      const r = await run(['actions', `${d.file}:${d.line}`, '--apply', String(a.index), '--dry-run']);
      if (r.exit === 0 && r.stdout.startsWith('diff'))
        edits.push({ kind, what: `${a.title} at ${at}`, patch: r.stdout });
    }
  }
  return edits;
}

/**
 * A diagnostic as both answers print it, its message's first line alone:
 * tsserver elaborates a union's failure with whichever member it meets
 * first, which differed between two checks of the same text.
 */
const keyOf = (d: Record<string, unknown>) =>
  JSON.stringify([
    d.path,
    d.line,
    d.column,
    d.endLine,
    d.endColumn,
    d.severity,
    d.source,
    d.code,
    String(d.message).split('\n')[0],
  ]);

export interface Compared {
  edit: Edit;
  /** Why the edit was not compared: git itself does not apply its diff. */
  skipped?: string;
  /** What `--patch` said it could not check (exit 3), in its one line: no answer to compare. */
  said?: string;
  /** The diagnostics each reported as new, as keys. */
  patch: string[];
  since: string[];
  same: boolean;
  patchMs: number;
}

/**
 * The edit checked in memory, then written, committed and checked since
 * the commit before; then taken back (the repository at `root` ends as it
 * began). `git` runs git in `root`.
 */
export async function compareEdit(
  root: string,
  edit: Edit,
  run: Run,
  git: (...args: string[]) => string,
): Promise<Compared> {
  const file = join(root, '.git', 'seeded-edit.patch');
  writeFileSync(file, edit.patch);
  try {
    git('apply', '--check', file);
  } catch (err) {
    return { edit, skipped: (err as Error).message.split('\n')[0]!, patch: [], since: [], same: false, patchMs: 0 };
  }
  const start = performance.now();
  const patched = await run(['diag', '--patch', '-', '--json', '--limit', '100000'], edit.patch);
  const patchMs = performance.now() - start;
  if (patched.exit === 3)
    return { edit, said: patched.stderr.split('\n')[0] ?? '', patch: [], since: [], same: false, patchMs };
  const patch = (JSON.parse(patched.stdout) as { diagnostics?: Record<string, unknown>[] }).diagnostics;
  git('apply', file);
  git('add', '-A');
  git('commit', '-qm', edit.what);
  try {
    const since = await run(['diag', '--since', 'HEAD~1', '--all', '--json', '--limit', '100000']);
    const found = (JSON.parse(since.stdout) as { diagnostics?: Record<string, unknown>[] }).diagnostics;
    const a = (patch ?? []).map(keyOf).sort();
    const b = (found ?? []).map(keyOf).sort();
    const same = patch !== undefined && found !== undefined && JSON.stringify(a) === JSON.stringify(b);
    return { edit, patch: patch ? a : [patched.stdout], since: found ? b : [since.stdout], same, patchMs };
  } finally {
    git('reset', '-q', '--hard', 'HEAD~1');
    git('clean', '-qfd');
  }
}
