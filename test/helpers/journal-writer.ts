/**
 * One journaled edit of two files, in a process of its own so that
 * LSPQ_TEST_CRASH_AT can kill it at any step (test/unit/journal-crash.test.ts):
 * `bun journal-writer.ts DIR JOURNAL ID write|fail`. With `fail`, the second
 * file is read-only: the first is written, then taken back.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { writePlan } from '../../src/engine/apply-edit';

const [dir, journal, id, mode] = process.argv.slice(2) as [string, string, string, string];
if (mode === 'fail') chmodSync(join(dir, 'b.txt'), 0o444);
const change = (name: string) => ({
  path: join(dir, name),
  before: `${name} before\n`,
  after: `${name} after\n`,
  edits: 1,
});
try {
  await writePlan(
    { files: [change('a.txt'), change('b.txt')] },
    { root: dir, allowOutside: false, settleMs: 0, journal: { dir: journal, id, summary: 'two files' } },
  );
} catch {
  process.exit(3);
}
