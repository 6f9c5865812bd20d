/**
 * A file replaced while another program writes it, step by step: a write
 * that reaches the original after lspq's check is seen, the original goes
 * back in place with it, and what was appended to lspq's file meanwhile
 * comes along; nothing is lost, nothing is left beside the file.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GuardedFile } from '../../src/engine/guarded-file';
import { temporaryNames } from '../../src/engine/journal';

const bytes = (text: string) => Buffer.from(text);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function file(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-guarded-'));
  dirs.push(dir);
  const path = join(dir, 'a.go');
  writeFileSync(path, text);
  return path;
}

/** Another program's `>>`: opened now, written whenever it likes. */
const appender = (path: string) => openSync(path, 'a');

describe('GuardedFile', () => {
  test('nothing else wrote: lspq’s text stays, and no link or temporary is left', () => {
    const path = file('one\n');
    const g = GuardedFile.open(path, bytes('one\n'), temporaryNames(path))!;
    g.replace(bytes('ONE\n'), 0o644);
    expect(g.unchanged()).toBe(true);
    g.close();
    expect(readFileSync(path, 'utf8')).toBe('ONE\n');
    expect(readdirSync(join(path, '..'))).toEqual(['a.go']);
  });

  test('a write that reached the original after the rename is seen, and the original goes back with it', () => {
    const path = file('one\n');
    const g = GuardedFile.open(path, bytes('one\n'), temporaryNames(path))!;
    const theirs = appender(path); // opened before lspq's rename: it writes into the original
    g.replace(bytes('ONE\n'), 0o644);
    writeSync(theirs, 'theirs\n');
    expect(g.unchanged()).toBe(false);
    g.putBack(0o644);
    g.close();
    expect(readFileSync(path, 'utf8')).toBe('one\ntheirs\n');
    // Their descriptor still writes into the file that is in place.
    writeSync(theirs, 'later\n');
    closeSync(theirs);
    expect(readFileSync(path, 'utf8')).toBe('one\ntheirs\nlater\n');
    expect(readdirSync(join(path, '..'))).toEqual(['a.go']);
  });

  test('what was appended to lspq’s file while it was in place comes back with the original', () => {
    const path = file('one\n');
    const g = GuardedFile.open(path, bytes('one\n'), temporaryNames(path))!;
    const early = appender(path);
    g.replace(bytes('ONE\n'), 0o644);
    const late = appender(path); // opened after the rename: it writes into lspq's file
    writeSync(early, 'early\n');
    writeSync(late, 'late\n');
    g.putBack(0o644);
    g.close();
    closeSync(early);
    closeSync(late);
    expect(readFileSync(path, 'utf8')).toBe('one\nearly\nlate\n');
  });
});
