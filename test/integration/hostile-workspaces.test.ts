/**
 * Generated hostile workspaces (test/helpers/hostile-workspace.ts): every
 * way in planted in every folder from the project up to the layout's top,
 * in each layout an agent meets. Untrusted, every command answers exactly
 * with the user's own servers (or exit 3 where one would need trust) and
 * no mark is left; `trust --explain` names what trust would let run and
 * runs nothing. Trusted, the project's own tools run, and nothing above
 * the trusted folder does.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANSWERS, hostileWorkspace, type Layout, marksIn } from '../helpers/hostile-workspace';
import { Lspq } from '../helpers/lspq';

const lspq = new Lspq({ trusting: false });
const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-hostile-ws-')));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

/** The other commands: each reads what a def does, and more (formatters, code actions, several files at once). */
const OTHERS = [
  ['hover', 'src/app.ts:2:twice'],
  ['typedef', 'src/app.ts:2:four'],
  ['impls', 'src/lib.ts:1:twice'],
  ['mv', 'src/lib.ts', 'src/lib2.ts', '--dry-run'],
  ['git', 'status'],
  ['symbols', 'src/lib.ts'],
  ['symbols', '-w', 'twice'],
  ['calls', 'src/lib.ts:1:twice'],
  ['fmt', 'src/lib.ts', 'main.go', 'src/lib_py.py'],
  ['rename', 'src/lib.ts:1:twice', 'double', '--dry-run'],
  ['actions', 'src/app.ts:2'],
  ['diag', 'src/app.ts', 'src/app_py.py', 'main.go', 'src/main.c'],
  ['servers', '--for', 'src/app.ts'],
  // The indexers, from PATH; rust-analyzer's is left out (a rust-project.json above names a sysroot of programs).
  ['index', '--timeout', '300'],
];

const SAID =
  /^lspq: warning: left out .*: the workspace is not trusted(, and no box can be made here \(LSPQ_BOX=off\))? \(lspq trust .* lets it run\)$/m;

describe.each<Layout>(['archive', 'archive-with-git', 'odd-names', 'gitlink'])('%s', (layout) => {
  const h = hostileWorkspace(base, layout);
  const ask = (args: string[]) => lspq.run(args, { cwd: h.project });

  test('every question answers with the user’s servers, exactly; nothing of the workspace runs', async () => {
    const python = layout === 'archive' ? [ANSWERS.pylsp.def, ANSWERS.jedi.def, ANSWERS.basedpyright.def] : [];
    for (const q of [ANSWERS.ts.def, ANSWERS.py.def, ...python, ANSWERS.go.def, ANSWERS.rust.def, ANSWERS.c.def]) {
      const expected = Object.values(ANSWERS).find((a) => 'def' in a && a.def === q)!.out;
      const r = await ask(q);
      expect([q.join(' '), r.stdout, r.exit]).toEqual([q.join(' '), expected, 0]);
      expect(r.stderr).toMatch(SAID);
    }
    const refs = await ask(ANSWERS.tsRefs.refs);
    expect([refs.stdout, refs.exit]).toEqual([ANSWERS.tsRefs.out, 0]);
    // Every other command in one layout: what they read is the same in each (the layouts differ in what is above).
    const others = layout === 'archive' ? OTHERS : [];
    for (const q of others) {
      const r = await ask(q);
      // An answer, or exit 3 where only a workspace's tool could give one: never a mark.
      expect([q.join(' '), r.exit <= 1 || r.exit === 3]).toEqual([q.join(' '), true]);
    }
    expect(marksIn(h)).toEqual([]);
  }, 400_000); // every server of six languages, untrusted and in its box, then every other command: minutes on loaded cores

  test('trust --explain names what trusting would let run, and which folder to trust for what lies above', async () => {
    const explained = await lspq.json<{ wouldRun: { what: string; files: string[]; trust?: string }[] }>(
      ['trust', '--explain'],
      { cwd: h.project },
    );
    const whats = explained.wouldRun.map((w) => w.what);
    for (const what of [
      'the servers and settings of its .lsp.json',
      'typescript-language-server from node_modules/.bin',
      'pyright-langserver from node_modules/.bin',
      'gopls from node_modules/.bin',
      'an index that came with the workspace',
    ])
      expect(whats).toContain(what);
    // Something above the project is listed with the folder whose trust it needs.
    expect(explained.wouldRun.some((w) => w.trust !== undefined && !w.trust.startsWith(h.project))).toBe(true);
    expect(marksIn(h)).toEqual([]);
  });
});

describe('trusted, the project’s own tools run, and nothing above the trusted folder does', () => {
  const h = hostileWorkspace(base, 'archive', { name: 'trusted' });
  test('lspq trust in the project: marks only from inside it', async () => {
    expect((await lspq.run(['trust'], { cwd: h.project })).exit).toBe(0);
    // Its index is no index (trusted, it is read and refused): asked without it.
    for (const q of [ANSWERS.ts.def, ANSWERS.py.def, ANSWERS.go.def, ANSWERS.c.def]) {
      const r = await lspq.run([...q, '--no-index'], { cwd: h.project });
      expect([q.join(' '), r.exit]).toEqual([q.join(' '), 0]);
    }
    const marks = marksIn(h);
    // The project's own .lsp.json servers ran (the nearest), with its own TypeScript, and no mark is from a
    // folder above the project.
    for (const mark of [
      'lsp-json-typescript-language-server@top~proj~src',
      'lsp-json-pyright@top~proj~src',
      'lsp-json-gopls@top~proj',
      'tsserver-js@top~proj',
    ])
      expect(marks).toContain(mark);
    expect(marks.filter((m) => !/@top~proj(~|$)/.test(m) && !m.startsWith('compile-db') && m !== 'build-rs')).toEqual(
      [],
    );
    await lspq.run(['trust', '--revoke'], { cwd: h.project });
  });
});

describe('a repository whose cargo configuration names programs', () => {
  const h = hostileWorkspace(base, 'archive', { refusing: true, name: 'refusing' });
  test('rust-analyzer is left out (exit 3, naming the file); the other languages answer; nothing runs', async () => {
    const r = await lspq.run(ANSWERS.rust.def, { cwd: h.project });
    expect(r.exit).toBe(3);
    expect(r.stderr).toContain('rust-analyzer (its .cargo/config.toml, ../.cargo/config.toml');
    const ts = await lspq.run(ANSWERS.ts.def, { cwd: h.project });
    expect([ts.stdout, ts.exit]).toEqual([ANSWERS.ts.out, 0]);
    expect(marksIn(h)).toEqual([]);
  });
});
