/**
 * The workspace-edit planner (pure) and writer (on temporary files): edits
 * in every position encoding, resource operations, the file conventions a
 * writer keeps, and all-or-nothing writes with their refusals and undo.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { writePlan } from '../../src/engine/apply-edit';
import { LspqError } from '../../src/common/errors';
import { parseEditorconfig } from '../../src/lsp/editorconfig';
import { applyTextEdits, keepFileConventions, planWorkspaceEdit } from '../../src/lsp/workspace-edit';
import { unifiedDiff } from '../../src/render/diff';

const edit = (line: number, start: number, end: number, newText: string, endLine = line): TextEdit => ({
  range: { start: { line, character: start }, end: { line: endLine, character: end } },
  newText,
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-edits-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function refusal(fn: () => unknown): LspqError {
  try {
    fn();
  } catch (err) {
    if (err instanceof LspqError) return err;
    throw err;
  }
  throw new Error('not refused');
}

/** The same for a refusal that comes as a rejected promise (writePlan). */
async function refused(fn: () => Promise<unknown>): Promise<LspqError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof LspqError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('applyTextEdits', () => {
  test('edits apply against the original text, whatever order the server lists them in', () => {
    expect(applyTextEdits('abc\ndef\n', [edit(1, 0, 3, 'DEF'), edit(0, 1, 2, 'B')], 'utf-16', 'f')).toBe('aBc\nDEF\n');
  });

  test('inserts at one place keep the order given', () => {
    expect(applyTextEdits('x\n', [edit(0, 0, 0, '1'), edit(0, 0, 0, '2')], 'utf-16', 'f')).toBe('12x\n');
  });

  test('the position encoding: after an emoji, utf-16 counts 2, utf-8 4, utf-32 1', () => {
    const text = 'a🎉b\n';
    expect(applyTextEdits(text, [edit(0, 3, 4, 'B')], 'utf-16', 'f')).toBe('a🎉B\n');
    expect(applyTextEdits(text, [edit(0, 5, 6, 'B')], 'utf-8', 'f')).toBe('a🎉B\n');
    expect(applyTextEdits(text, [edit(0, 2, 3, 'B')], 'utf-32', 'f')).toBe('a🎉B\n');
  });

  test('CRLF lines and an edit appending after the last line', () => {
    expect(applyTextEdits('a\r\nb\r\n', [edit(1, 0, 1, 'B'), edit(2, 0, 0, 'c\r\n')], 'utf-16', 'f')).toBe(
      'a\r\nB\r\nc\r\n',
    );
  });

  test('overlapping edits are refused, nothing applied', () => {
    expect(
      refusal(() => applyTextEdits('abcdef', [edit(0, 0, 3, 'x'), edit(0, 2, 4, 'y')], 'utf-16', 'f')).message,
    ).toBe("the server's edits for f overlap; nothing was written");
  });
});

describe('keepFileConventions', () => {
  test('a BOM and CRLF endings survive a formatter that drops them', () => {
    expect(keepFileConventions('\uFEFFa\r\nb\r\n', 'a\nB\n')).toBe('\uFEFFa\r\nB\r\n');
  });
  test('LF files and mixed files are left as the edit made them', () => {
    expect(keepFileConventions('a\nb\n', 'a\nB\n')).toBe('a\nB\n');
    expect(keepFileConventions('a\r\nb\n', 'a\nB\n')).toBe('a\nB\n');
  });
});

describe('planWorkspaceEdit', () => {
  const texts: Record<string, string> = { '/w/a.ts': 'old a\n', '/w/b.ts': 'old b\n' };
  const read = (p: string) => texts[p];

  test('changes: each file with its text before and after', () => {
    const plan = planWorkspaceEdit(
      { changes: { 'file:///w/a.ts': [edit(0, 0, 3, 'new')], 'file:///w/b.ts': [edit(0, 0, 3, 'new')] } },
      read,
      'utf-16',
    );
    expect(plan.files).toEqual([
      { path: '/w/a.ts', before: 'old a\n', after: 'new a\n', edits: 1 },
      { path: '/w/b.ts', before: 'old b\n', after: 'new b\n', edits: 1 },
    ]);
  });

  test('documentChanges: a versioned edit, a created file, a rename and a delete', () => {
    const change: WorkspaceEdit = {
      documentChanges: [
        { textDocument: { uri: 'file:///w/a.ts', version: 3 }, edits: [edit(0, 0, 3, 'new')] },
        { kind: 'create', uri: 'file:///w/c.ts' },
        { textDocument: { uri: 'file:///w/c.ts', version: null }, edits: [edit(0, 0, 0, 'made\n')] },
        { kind: 'rename', oldUri: 'file:///w/a.ts', newUri: 'file:///w/z.ts' },
        { kind: 'delete', uri: 'file:///w/b.ts' },
      ],
    };
    const plan = planWorkspaceEdit(change, (p) => texts[p] ?? (p === '/w/c.ts' ? undefined : undefined), 'utf-16');
    expect(plan.files).toEqual([
      { path: '/w/a.ts', before: 'old a\n', after: 'new a\n', edits: 1, version: 3, renamedTo: '/w/z.ts' },
      { path: '/w/c.ts', before: null, after: 'made\n', edits: 2 },
      { path: '/w/b.ts', before: 'old b\n', after: null, edits: 1 },
    ]);
  });

  test('a file the edit names that does not exist, or a create over one that does', () => {
    expect(
      refusal(() => planWorkspaceEdit({ changes: { 'file:///w/nope.ts': [edit(0, 0, 0, 'x')] } }, read, 'utf-16')).code,
    ).toBe('file_not_found');
    expect(
      refusal(() => planWorkspaceEdit({ documentChanges: [{ kind: 'create', uri: 'file:///w/a.ts' }] }, read, 'utf-16'))
        .message,
    ).toBe("the server's edit creates /w/a.ts, which exists; nothing was written");
  });
});

describe('writePlan', () => {
  test('writes every file whole, keeps its mode, and writes a symlink target through the link', async () => {
    const dir = scratch({ 'a.txt': 'a\n', 'real.txt': 'r\n' });
    chmodSync(join(dir, 'a.txt'), 0o755);
    symlinkSync(join(dir, 'real.txt'), join(dir, 'link.txt'));
    const written = await writePlan(
      {
        files: [
          { path: join(dir, 'a.txt'), before: 'a\n', after: 'A\n', edits: 1 },
          { path: join(dir, 'link.txt'), before: 'r\n', after: 'R\n', edits: 1 },
        ],
      },
      { root: dir, allowOutside: false },
    );
    expect(written).toEqual([join(dir, 'a.txt'), join(dir, 'link.txt')]);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('A\n');
    expect(statSync(join(dir, 'a.txt')).mode & 0o777).toBe(0o755);
    expect(lstatSync(join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.txt'), 'utf8')).toBe('R\n');
  });

  test('a file changed since the edit was computed: refused, nothing written', async () => {
    const dir = scratch({ 'a.txt': 'a\n', 'b.txt': 'changed by someone\n' });
    const err = await refused(() =>
      writePlan(
        {
          files: [
            { path: join(dir, 'a.txt'), before: 'a\n', after: 'A\n', edits: 1 },
            { path: join(dir, 'b.txt'), before: 'b\n', after: 'B\n', edits: 1 },
          ],
        },
        { root: dir, allowOutside: false },
      ),
    );
    expect([err.code, err.exit]).toEqual(['stale_edit', 3]);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
  });

  test('outside the root: refused unless allowed', async () => {
    const dir = scratch({ 'a.txt': 'a\n' });
    const plan = { files: [{ path: join(dir, 'a.txt'), before: 'a\n', after: 'A\n', edits: 1 }] };
    const err = await refused(() => writePlan(plan, { root: join(dir, 'sub'), allowOutside: false }));
    expect([err.code, err.exit]).toEqual(['outside_workspace', 2]);
    expect(err.message).toContain('add --allow-outside');
    expect(await writePlan(plan, { root: join(dir, 'sub'), allowOutside: true })).toEqual([join(dir, 'a.txt')]);
  });

  test('a step that fails undoes the ones before it: written, created and renamed files are put back', async () => {
    const dir = scratch({ 'a.txt': 'a\n', 'b.txt': 'b\n', blocker: 'a file where a folder should be\n' });
    const err = await refused(() =>
      writePlan(
        {
          files: [
            { path: join(dir, 'a.txt'), before: 'a\n', after: 'A\n', edits: 1 },
            { path: join(dir, 'new.txt'), before: null, after: 'new\n', edits: 1 },
            { path: join(dir, 'b.txt'), before: 'b\n', after: 'b\n', edits: 1, renamedTo: join(dir, 'moved.txt') },
            { path: join(dir, 'blocker', 'c.txt'), before: null, after: 'c\n', edits: 1 },
          ],
        },
        { root: dir, allowOutside: false },
      ),
    );
    expect([err.code, err.message]).toEqual([
      'write_failed',
      `could not write ${join(dir, 'blocker', 'c.txt')} (EEXIST); nothing was changed (3 file(s) written before it were restored)`,
    ]);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    expect([existsSync(join(dir, 'new.txt')), existsSync(join(dir, 'moved.txt'))]).toEqual([false, false]);
  });
});

describe('unifiedDiff', () => {
  test('git headers, /dev/null for created and deleted files, no-newline markers', async () => {
    const diff = unifiedDiff(
      [
        { path: '/p/a.txt', changes: 1, before: 'x\ny\n', after: 'x\nz\n' },
        { path: '/p/new.txt', changes: 1, before: null, after: 'n\n' },
        { path: '/p/gone.txt', changes: 1, before: 'g', after: null },
      ],
      '/p',
    );
    expect(diff).toBe(
      [
        'diff --git a/a.txt b/a.txt',
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -1,2 +1,2 @@',
        ' x',
        '-y',
        '+z',
        'diff --git a/new.txt b/new.txt',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1 @@',
        '+n',
        'diff --git a/gone.txt b/gone.txt',
        'deleted file mode 100644',
        '--- a/gone.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-g',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
  });
});

describe('unifiedDiff of moves, paths from the top it is given', () => {
  test('a file moved with its edit, and one moved alone: rename headers, a hunk only where the text changes', () => {
    const diff = unifiedDiff(
      [
        { path: '/repo/src/a.ts', renamedTo: '/repo/src/core/a.ts', changes: 1, before: 'x\n', after: 'y\n' },
        { path: '/repo/src/b.png', renamedTo: '/repo/src/core/b.png' },
      ],
      '/repo',
    );
    expect(diff).toBe(
      [
        'diff --git a/src/a.ts b/src/core/a.ts',
        'rename from src/a.ts',
        'rename to src/core/a.ts',
        '--- a/src/a.ts',
        '+++ b/src/core/a.ts',
        '@@ -1 +1 @@',
        '-x',
        '+y',
        'diff --git a/src/b.png b/src/core/b.png',
        'rename from src/b.png',
        'rename to src/core/b.png',
        '',
      ].join('\n'),
    );
  });
});

describe('parseEditorconfig', () => {
  test('root, sections, keys in any case, comments', async () => {
    expect(
      parseEditorconfig('root = true\n# c\n[*.ts]\nIndent_Style = tab\n; c\n[Makefile]\nindent_size: 8\n'),
    ).toEqual({
      root: true,
      sections: [
        { glob: '*.ts', props: { indent_style: 'tab' } },
        { glob: 'Makefile', props: { indent_size: '8' } },
      ],
    });
  });
});

describe('several entries for one file (a move answered per file)', () => {
  const read = () => "import a from './a';\nimport b from './b';\n";
  const doc = (edits: TextEdit[]) => ({ textDocument: { uri: 'file:///p/m.ts', version: null }, edits });

  test('apply together to the text they were computed against, not one on the other', () => {
    const plan = planWorkspaceEdit(
      { documentChanges: [doc([edit(0, 15, 18, '../a')]), doc([edit(1, 15, 18, '../b')])] },
      read,
      'utf-16',
    );
    expect(plan.files[0]?.after).toBe("import a from '../a';\nimport b from '../b';\n");
  });

  test('the same edit twice is one edit', () => {
    const same = edit(0, 15, 18, '../a');
    const plan = planWorkspaceEdit({ documentChanges: [doc([same]), doc([same])] }, read, 'utf-16');
    expect(plan.files[0]?.after).toBe("import a from '../a';\nimport b from './b';\n");
  });

  test('two different edits of one place are refused, nothing planned', () => {
    const both: WorkspaceEdit = { documentChanges: [doc([edit(0, 15, 18, '../a')]), doc([edit(0, 15, 18, './x/a')])] };
    expect(() => planWorkspaceEdit(both, read, 'utf-16')).toThrow("the server's edits for /p/m.ts overlap");
  });
});

describe('moves (lspq mv)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-moves-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a folder moves into folders made for it, with an edit at its new place; undone whole on failure', async () => {
    const from = join(dir, 'src');
    const to = join(dir, 'deep', 'er', 'lib');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(from);
    writeFileSync(join(from, 'a.ts'), 'old\n');
    writeFileSync(join(dir, 'ro.ts'), 'x\n');
    chmodSync(join(dir, 'ro.ts'), 0o444);
    const moved = { path: join(to, 'a.ts'), before: 'old\n', after: 'new\n', edits: 1 };
    const failing = { files: [moved, { path: join(dir, 'ro.ts'), before: 'x\n', after: 'y\n', edits: 1 }] };
    await expect(writePlan({ ...failing, moves: [{ from, to }] }, { root: dir, allowOutside: false })).rejects.toThrow(
      LspqError,
    );
    expect(readFileSync(join(from, 'a.ts'), 'utf8')).toBe('old\n');
    expect(existsSync(join(dir, 'deep'))).toBe(false);
    await writePlan({ files: [moved], moves: [{ from, to }] }, { root: dir, allowOutside: false });
    expect(readFileSync(join(to, 'a.ts'), 'utf8')).toBe('new\n');
    expect(existsSync(from)).toBe(false);
  });

  test('onto a path that exists, or outside the root: refused before anything moves', async () => {
    const from = join(dir, 'one.ts');
    writeFileSync(from, '1\n');
    writeFileSync(join(dir, 'two.ts'), '2\n');
    const onto = writePlan(
      { files: [], moves: [{ from, to: join(dir, 'two.ts') }] },
      { root: dir, allowOutside: false },
    );
    await expect(onto).rejects.toThrow('two.ts exists now; nothing was moved or written');
    const outside = writePlan(
      { files: [], moves: [{ from, to: join(tmpdir(), `lspq-outside-${process.pid}.ts`) }] },
      { root: dir, allowOutside: false },
    );
    await expect(outside).rejects.toThrow('outside the workspace root');
    expect(readFileSync(from, 'utf8')).toBe('1\n');
  });
});
