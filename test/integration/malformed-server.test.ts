/**
 * A server whose every answer has the wrong shape (test/fakes/malformed.ts),
 * with malformed notifications and requests before each answer, and, in a
 * second project, a frame that is not JSON: each question fails alone with
 * one line naming the server, the request and what was wrong (exit 3), the
 * daemon stays the same process, and nothing is left running.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const dirs: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(fake: string): string {
  mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
  const dir = mkdtempSync(join(REPO, 'test', '.scratch', 'garbage-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'a.fake'), 'hello a\nworld\n');
  const server = {
    command: process.execPath,
    args: [join(REPO, 'test', 'fakes', `${fake}.ts`)],
    extensionToLanguage: { '.fake': 'fake' },
    rootMarkers: ['.lsp.json'],
  };
  writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ fake: server }));
  return dir;
}

const malformed = (method: string, what: string) =>
  `lspq: fake sent a malformed answer to ${method} (${what}); see 'lspq daemon logs'\n`;
const NO_SHAPE = 'none of the shapes the protocol allows';

const CASES: [string[], string][] = [
  [['def', 'a.fake:1:hello'], malformed('textDocument/definition', `the answer: ${NO_SHAPE}`)],
  [['typedef', 'a.fake:1:hello'], malformed('textDocument/typeDefinition', `the answer: ${NO_SHAPE}`)],
  [['impls', 'a.fake:1:hello'], malformed('textDocument/implementation', `the answer: ${NO_SHAPE}`)],
  [['refs', 'a.fake:1:hello'], malformed('textDocument/references', 'the answer: expected array')],
  [['hover', 'a.fake:1:hello'], malformed('textDocument/hover', `contents: ${NO_SHAPE}`)],
  [['symbols', 'a.fake'], malformed('textDocument/documentSymbol', `the answer: ${NO_SHAPE}`)],
  [['symbols', '-w', 'hello', '--root', '.'], malformed('workspace/symbol', '0.name: expected string')],
  [['calls', 'a.fake:1:hello'], malformed('textDocument/prepareCallHierarchy', '0.kind: expected number')],
  [['actions', 'a.fake:1'], malformed('textDocument/codeAction', `0: ${NO_SHAPE}`)],
  [['fmt', 'a.fake'], malformed('textDocument/formatting', '0.range: expected object')],
  [['fmt', 'a.fake', '--range', '1-2'], malformed('textDocument/rangeFormatting', '0.range: expected object')],
  [['rename', 'a.fake:1:hello', 'bye'], malformed('textDocument/prepareRename', `the answer: ${NO_SHAPE}`)],
];

describe.each([
  ['malformed answers and notifications', 'malformed-answers'],
  ['and a frame that is not JSON before each answer', 'malformed-frames'],
])('a server that sends %s', (_what, fake) => {
  const dir = project(fake);
  let pid = 0;

  test.each(CASES)('%j: exit 3, one line, nothing else', async (args, stderr) => {
    expect(await lspq.run([...args, '--timeout', '10'], { cwd: dir })).toEqual({ exit: 3, stdout: '', stderr });
  });

  test('diag: the malformed publish is dropped, not taken as an answer; the daemon never restarted', async () => {
    expect(await lspq.run(['diag', 'a.fake', '--timeout', '10'], { cwd: dir })).toEqual({
      exit: 0,
      stdout: '',
      stderr: 'lspq: no problems in 1 file\n',
    });
    const now = (await lspq.json<{ pid: number }>(['daemon', 'status'])).pid;
    if (pid) expect(now).toBe(pid);
    pid = now;
    const logs = await lspq.run(['daemon', 'logs']);
    expect(logs.stdout).toContain(
      'fake sent a malformed textDocument/publishDiagnostics (diagnostics: expected array); ignored',
    );
    expect(logs.stdout).toContain('fake sent a malformed workspace/applyEdit (edit: expected object); ignored');
  });
});

// With prepareRename answered well, rename's own edit is read and refused before anything is written.
test('rename: a malformed WorkspaceEdit is refused and nothing is written', async () => {
  const dir = project('malformed-rename');
  expect(await lspq.run(['rename', 'a.fake:1:hello', 'bye', '--timeout', '10'], { cwd: dir })).toEqual({
    exit: 3,
    stdout: '',
    stderr: malformed('textDocument/rename', 'changes.file:///x: expected array'),
  });
  expect(readFileSync(join(dir, 'a.fake'), 'utf8')).toBe('hello a\nworld\n');
});
