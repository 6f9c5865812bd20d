/**
 * The daemon's view of a root whose folder is replaced under it: deleted
 * and made again at once (the kernel hands the new folder the old inode
 * number), moved away with a new one in its place, and deleted while a
 * process holds it as its working folder (the kernel ends no watch then).
 * Each must be told as gone, or a server keeps answering from a tree that
 * no longer exists while the new one's files reach it by no event.
 */
import { afterAll, afterEach, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Watchers } from '../../src/daemon/watch';

const top = mkdtempSync(join(tmpdir(), 'lspq-disk-watch-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

let watchers: Watchers | undefined;
afterEach(() => watchers?.close());

function project(name: string): string {
  const root = join(top, name);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.rs'), 'fn a() {}\n');
  return root;
}

async function watched(root: string): Promise<{ w: Watchers; mark: number; said: string[] }> {
  const said: string[] = [];
  const w = new Watchers((line) => said.push(line));
  watchers = w;
  return { w, mark: await w.watch(root), said };
}

test('deleted and made again at once: gone, though the new folder may have the old inode number', async () => {
  const root = project('again');
  const { w, mark, said } = await watched(root);
  rmSync(root, { recursive: true });
  project('again');
  w.markNow();
  expect(w.goneSince(root, mark)).toBe(true);
  expect(said).toEqual([`${root} went away on disk; its servers will start again on their next question`]);
  // Watched afresh, the new tree is known from the new mark on.
  const again = await w.watch(root);
  expect(w.goneSince(root, again)).toBe(false);
  writeFileSync(join(root, 'src', 'b.rs'), 'fn b() {}\n');
  w.markNow();
  expect(w.changesSince(root, again)).toEqual([{ path: join(root, 'src', 'b.rs'), kind: 'created' }]);
});

test('moved away, a new folder in its place: gone', async () => {
  const root = project('moved');
  const { w, mark } = await watched(root);
  renameSync(root, `${root}.old`);
  project('moved');
  w.markNow();
  expect(w.goneSince(root, mark)).toBe(true);
});

test('deleted while a process works in it: gone, though the kernel keeps its watch', async () => {
  const root = project('held');
  const { w, mark } = await watched(root);
  const holder = Bun.spawn(['sleep', '30'], { cwd: root, stdout: 'ignore', stderr: 'ignore' });
  try {
    rmSync(root, { recursive: true });
    project('held');
    w.markNow();
    expect(w.goneSince(root, mark)).toBe(true);
  } finally {
    holder.kill();
  }
});

test('a root inside another replaced: the outer one still sees the files of the new folder', async () => {
  const outer = project('outer');
  const inner = join(outer, 'pkg');
  mkdirSync(inner);
  writeFileSync(join(inner, 'p.rs'), 'fn p() {}\n');
  const said: string[] = [];
  const w = new Watchers((line) => said.push(line));
  watchers = w;
  const outerMark = await w.watch(outer);
  const innerMark = await w.watch(inner);
  rmSync(inner, { recursive: true });
  mkdirSync(inner);
  writeFileSync(join(inner, 'q.rs'), 'fn q() {}\n');
  w.markNow();
  expect(w.goneSince(inner, innerMark)).toBe(true);
  expect(w.goneSince(outer, outerMark)).toBe(false);
  // The walk of a folder that arrives is a turn of the event loop away.
  await Bun.sleep(10);
  w.markNow();
  expect(w.changesSince(outer, outerMark)).toEqual([
    { path: join(inner, 'p.rs'), kind: 'deleted' },
    { path: join(inner, 'q.rs'), kind: 'created' },
  ]);
});

test('a root left alone is not gone', async () => {
  const root = project('alone');
  const { w, mark } = await watched(root);
  writeFileSync(join(root, 'src', 'a.rs'), 'fn a2() {}\n');
  w.markNow();
  expect(w.goneSince(root, mark)).toBe(false);
  expect(w.changesSince(root, mark)).toEqual([{ path: join(root, 'src', 'a.rs'), kind: 'changed' }]);
});
