/**
 * What a server said of files as they are on disk is remembered while
 * nothing on disk changes: a patch check's side before the edit is then not
 * computed again. Text laid over the disk and taken off is no change of it;
 * a file changed or deleted on disk, or a change heard from the watcher, is.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { Documents, type DocumentsClient } from '../../src/lsp/documents';
import { ServerState } from '../../src/lsp/server-state';
import type { ServerSpec } from '../../src/lsp/servers/registry';

const dir = mkdtempSync(join(tmpdir(), 'lspq-disk-diagnoses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec: ServerSpec = {
  id: 'fake',
  name: 'fake',
  command: 'fake',
  args: [],
  languages: { '.ts': 'typescript' },
  rootMarkers: [],
  install: '',
  envKeys: [],
  readiness: 'immediate',
  versionArgs: [],
};

function documents(): { docs: Documents; sent: string[] } {
  const sent: string[] = [];
  const client: DocumentsClient = {
    spec,
    alive: true,
    state: new ServerState('immediate', false),
    sendNotification: async (type) => {
      sent.push(type.method);
    },
  };
  return { docs: new Documents(client), sent };
}

const said = (message: string): Diagnostic[] => [
  { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message },
];

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('diagnoses of the disk remembered while it holds', () => {
  test('asked again with nothing changed: the same; asked another way (with cargo check or without): not held', async () => {
    const { docs } = documents();
    const a = file('a.ts', 'export const a = 1;\n');
    await docs.sync(a);
    const at = docs.diskState();
    expect(at).toBe(0);
    docs.rememberDiskDiagnoses(a, 'own', said('one'), at ?? -1);
    expect(docs.diskDiagnosesOf(a, 'own')).toEqual(said('one'));
    expect(docs.diskDiagnosesOf(a, 'with-check')).toBeUndefined();
    expect(docs.diskDiagnosesOf(join(dir, 'other.ts'), 'own')).toBeUndefined();
  });

  test('a tree laid over and taken off: held again after; while it lies, nothing is held or remembered', async () => {
    const { docs } = documents();
    const a = file('b.ts', 'export const b = 1;\n');
    await docs.sync(a);
    docs.rememberDiskDiagnoses(a, 'own', said('one'), docs.diskState() ?? -1);
    await docs.overlay(a, 'export const b = "x";\n');
    expect(docs.diskState()).toBeUndefined();
    expect(docs.diskDiagnosesOf(a, 'own')).toBeUndefined();
    docs.rememberDiskDiagnoses(a, 'own', said('laid'), 0);
    await docs.endOverlay(a);
    expect(docs.diskState()).toBe(0);
    expect(docs.diskDiagnosesOf(a, 'own')).toEqual(said('one'));
  });

  test('a file hidden (a patch deletes it) holds nothing until it is shown again', async () => {
    const { docs } = documents();
    const a = file('c.ts', 'export const c = 1;\n');
    await docs.sync(a);
    docs.rememberDiskDiagnoses(a, 'own', said('one'), 0);
    await docs.hide(a);
    expect(docs.diskDiagnosesOf(a, 'own')).toBeUndefined();
    await docs.unhide(a);
    expect(docs.diskDiagnosesOf(a, 'own')).toEqual(said('one'));
  });

  test('an open file changed on disk, one deleted, or a change heard from the watcher: nothing remembered holds', async () => {
    const { docs } = documents();
    const a = file('d.ts', 'export const d = 1;\n');
    const b = file('e.ts', 'export const e = 1;\n');
    await docs.sync(a);
    await docs.sync(b);
    docs.rememberDiskDiagnoses(a, 'own', said('a'), 0);
    docs.rememberDiskDiagnoses(b, 'own', said('b'), 0);
    // The same bytes written again (an editor's save): no change.
    writeFileSync(a, 'export const d = 1;\n');
    await docs.refreshAll();
    expect(docs.diskDiagnosesOf(a, 'own')).toEqual(said('a'));
    writeFileSync(a, 'export const d = 2;\n');
    await docs.refreshAll();
    expect(docs.diskState()).toBe(1);
    expect(docs.diskDiagnosesOf(b, 'own')).toBeUndefined();
    docs.rememberDiskDiagnoses(b, 'own', said('b1'), 1);
    unlinkSync(a);
    await docs.refreshAll();
    expect(docs.diskDiagnosesOf(b, 'own')).toBeUndefined();
    docs.rememberDiskDiagnoses(b, 'own', said('b2'), 2);
    expect(docs.diskDiagnosesOf(b, 'own')).toEqual(said('b2'));
    docs.touchWorld();
    expect(docs.diskDiagnosesOf(b, 'own')).toBeUndefined();
  });

  test('what was said at a generation since gone is not remembered (the disk changed while the server was asked)', async () => {
    const { docs } = documents();
    const a = file('f.ts', 'export const f = 1;\n');
    await docs.sync(a);
    const at = docs.diskState() ?? -1;
    docs.touchWorld();
    docs.rememberDiskDiagnoses(a, 'own', said('late'), at);
    expect(docs.diskDiagnosesOf(a, 'own')).toBeUndefined();
  });
});

describe('diagnoses of the disk before an edit, for the tree that puts it back (the hook)', () => {
  test('an open file changed on disk: the tree of its old text is the disk it was said of', async () => {
    const { docs } = documents();
    const a = file('g.ts', 'export const g = 1;\n');
    const b = file('h.ts', 'export const h = 1;\n');
    await docs.sync(a);
    await docs.sync(b);
    docs.rememberDiskDiagnoses(a, 'own', said('a'), 0);
    docs.rememberDiskDiagnoses(b, 'own', said('b'), 0);
    // The agent's edit, heard from the watcher, then the open document refreshed.
    writeFileSync(a, 'export const g = 2;\n');
    docs.touchWorld([a]);
    await docs.refreshAll();
    const before = new Map([[a, 'export const g = 1;\n']]);
    expect(docs.diagnosesUnder(b, 'own', before)).toEqual(said('b'));
    expect(docs.diagnosesUnder(a, 'own', before)).toEqual(said('a'));
    // The disk now is another state: nothing held of it.
    expect(docs.diagnosesUnder(b, 'own', new Map())).toBeUndefined();
    // Not the old text, another file besides, or a file left out: not that disk.
    expect(docs.diagnosesUnder(b, 'own', new Map([[a, 'export const g = 3;\n']]))).toBeUndefined();
    expect(docs.diagnosesUnder(b, 'own', new Map([...before, [b, 'export const h = 1;\n']]))).toBeUndefined();
    expect(docs.diagnosesUnder(b, 'own', new Map([[b, 'export const h = 1;\n']]))).toBeUndefined();
  });

  test('a file not open when it changed, a change not known by name, or one more change: the old disk is not known', async () => {
    const { docs } = documents();
    const a = file('i.ts', 'export const i = 1;\n');
    const b = file('j.ts', 'export const j = 1;\n');
    await docs.sync(b);
    docs.rememberDiskDiagnoses(b, 'own', said('b'), 0);
    writeFileSync(a, 'export const i = 2;\n');
    docs.touchWorld([a]);
    expect(docs.diagnosesUnder(b, 'own', new Map([[a, 'export const i = 1;\n']]))).toBeUndefined();

    const other = documents().docs;
    await other.sync(a);
    await other.sync(b);
    other.rememberDiskDiagnoses(b, 'own', said('b'), 0);
    writeFileSync(a, 'export const i = 3;\n');
    other.touchWorld(undefined);
    expect(other.diagnosesUnder(b, 'own', new Map([[a, 'export const i = 2;\n']]))).toBeUndefined();

    const third = documents().docs;
    await third.sync(a);
    await third.sync(b);
    third.rememberDiskDiagnoses(b, 'own', said('b'), 0);
    writeFileSync(a, 'export const i = 4;\n');
    third.touchWorld([a]);
    writeFileSync(b, 'export const j = 2;\n');
    await third.refreshAll();
    expect(third.diagnosesUnder(b, 'own', new Map([[a, 'export const i = 3;\n']]))).toBeUndefined();
    // Both put back: that disk again.
    expect(
      third.diagnosesUnder(
        b,
        'own',
        new Map([
          [a, 'export const i = 3;\n'],
          [b, 'export const j = 1;\n'],
        ]),
      ),
    ).toEqual(said('b'));
  });

  test('remembered again at a later generation: the changes are counted from there', async () => {
    const { docs } = documents();
    const a = file('k.ts', 'export const k = 1;\n');
    await docs.sync(a);
    docs.rememberDiskDiagnoses(a, 'own', said('k1'), 0);
    writeFileSync(a, 'export const k = 2;\n');
    await docs.refreshAll();
    docs.rememberDiskDiagnoses(a, 'own', said('k2'), docs.diskState() ?? -1);
    writeFileSync(a, 'export const k = 3;\n');
    await docs.refreshAll();
    expect(docs.diagnosesUnder(a, 'own', new Map([[a, 'export const k = 2;\n']]))).toEqual(said('k2'));
    expect(docs.diagnosesUnder(a, 'own', new Map([[a, 'export const k = 1;\n']]))).toBeUndefined();
  });
});
