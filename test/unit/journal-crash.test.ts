/**
 * The journal across crashes: an edit killed at each of its steps, written
 * or taken back, is recovered to exactly before or exactly after, nothing
 * of lspq's left and its outcome true; a record left with its outcome kept
 * (its writer died removing it) is known to be over; a writer's pid taken
 * by another process since is not that writer.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startedAt } from '../../src/common/process-table';
import { Journal, takeOutcome, unsettled } from '../../src/engine/journal';
import { recover } from '../../src/engine/journal-recovery';

const base = mkdtempSync(join(tmpdir(), 'lspq-journal-crash-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const WRITER = join(import.meta.dir, '..', 'helpers', 'journal-writer.ts');

let made = 0;
/** A folder of two files as before the edit, and an empty journal folder beside it. */
function tree(): { dir: string; journal: string } {
  const dir = join(base, `t${++made}`);
  const journal = join(base, `j${made}`);
  mkdirSync(dir);
  mkdirSync(journal);
  for (const name of ['a.txt', 'b.txt']) writeFileSync(join(dir, name), `${name} before\n`);
  return { dir, journal };
}
const files = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
const BEFORE = { 'a.txt': 'a.txt before\n', 'b.txt': 'b.txt before\n' };
const AFTER = { 'a.txt': 'a.txt after\n', 'b.txt': 'b.txt after\n' };

function write(dir: string, journal: string, mode: 'write' | 'fail', env: Record<string, string>) {
  return Bun.spawnSync(['bun', WRITER, dir, journal, 'edit-1', mode], {
    env: { ...process.env, ...env },
    stderr: 'pipe',
  });
}

describe('killed at every step', () => {
  for (const mode of ['write', 'fail'] as const)
    test(`${mode === 'write' ? 'an edit written' : 'an edit taken back'}: recovered to before or after, its outcome true`, () => {
      const counted = tree();
      const count = join(base, `count-${mode}`);
      const whole = write(counted.dir, counted.journal, mode, { LSPQ_TEST_CRASH_COUNT: count });
      expect(whole.exitCode).toBe(mode === 'write' ? 0 : 3);
      const steps = Number(readFileSync(count, 'utf8'));
      expect(steps).toBeGreaterThanOrEqual(3);
      for (let at = 1; at <= steps; at++) {
        const { dir, journal } = tree();
        const killed = write(dir, journal, mode, { LSPQ_TEST_CRASH_AT: String(at) });
        expect([at, killed.signalCode]).toEqual([at, 'SIGKILL']);
        const logged: string[] = [];
        recover(journal, (line) => logged.push(line));
        const now = files(dir);
        const outcome = takeOutcome(journal, 'edit-1');
        // Killed before the record was made: nothing was touched and nothing is known of it.
        const expected = outcome?.written ? AFTER : BEFORE;
        expect([at, now]).toEqual([at, expected]);
        expect([at, outcome?.left, logged.filter((l) => l.includes('another program'))]).toEqual([at, undefined, []]);
        expect([at, readdirSync(journal).filter((n) => n !== 'outcomes')]).toEqual([at, []]);
      }
    });
});

describe('a record left behind', () => {
  /** An edit of a.txt journaled in this process, its record's text kept, then taken back (nothing written) and ended. */
  function ended(): { dir: string; journal: string; record: string } {
    const { dir, journal } = tree();
    const path = join(dir, 'a.txt');
    const change = { path, before: 'a.txt before\n', after: 'a.txt after\n', edits: 1 };
    const j = Journal.begin({ dir: journal, id: 'edit-1', summary: 'one file' }, { files: [change] }, new Map());
    const record = readFileSync(join(journal, 'edit-1.json'), 'utf8');
    j.end(false);
    return { dir, journal, record };
  }

  test('its outcome kept and its bytes gone (the writer died removing them): over, not taken back against nothing', () => {
    const { dir, journal, record } = ended();
    writeFileSync(join(journal, 'edit-1.json'), record);
    const logged: string[] = [];
    recover(journal, (line) => logged.push(line));
    expect(files(dir)).toEqual(BEFORE);
    expect(takeOutcome(journal, 'edit-1')).toEqual({ id: 'edit-1', written: false, summary: 'one file' });
    expect(logged.filter((l) => l.includes('another program'))).toEqual([]);
    expect(readdirSync(journal).filter((n) => n !== 'outcomes')).toEqual([]);
  });

  test('its pid now another process’s (a start time that is not the writer’s): settled; the writer’s own: left to it', async () => {
    const other = Bun.spawn(['sleep', '60']);
    try {
      for (const [started, settled] of [
        ['1', true],
        [startedAt(other.pid)!, false],
      ] as const) {
        const { dir, journal, record } = ended();
        takeOutcome(journal, 'edit-1');
        // Its writer had written a.txt when it died.
        writeFileSync(join(dir, 'a.txt'), 'a.txt after\n');
        writeFileSync(join(journal, 'edit-1.bytes'), 'a.txt before\na.txt after\n');
        writeFileSync(join(journal, 'edit-1.json'), JSON.stringify({ ...JSON.parse(record), pid: other.pid, started }));
        recover(journal, () => {});
        if (settled) {
          expect([started, files(dir), unsettled(journal, 'edit-1')]).toEqual([started, BEFORE, undefined]);
          expect(takeOutcome(journal, 'edit-1')?.written).toBe(false);
        } else {
          expect(files(dir)['a.txt']).toBe('a.txt after\n');
          expect(unsettled(journal, 'edit-1')).toStartWith(`process ${other.pid} is still writing it`);
        }
      }
    } finally {
      other.kill();
      await other.exited;
    }
  });
});
