/** The daemon log rotates at its size limit and keeps one older file. */
import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileLogger } from '../../src/daemon/log';

test('lines go to the file; past the limit it becomes .1 and a new file starts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-log-'));
  try {
    const path = join(dir, 'daemon.log');
    const log = fileLogger(path, 250);
    for (let i = 0; i < 5; i++) log(`line ${i} ${'x'.repeat(40)}`);
    expect(
      readFileSync(`${path}.1`, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => l.split(' ')[2]),
    ).toEqual(['0', '1', '2']);
    expect(
      readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => l.split(' ')[2]),
    ).toEqual(['3', '4']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z line 3 x+\n/);
    expect(existsSync(`${path}.2`)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
