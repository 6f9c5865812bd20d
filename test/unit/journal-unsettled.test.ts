/** An edit whose journal recovery could not settle is "not known", never "nothing was written". */
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unsettled } from '../../src/engine/journal';

test('no journal: nothing to say; an unreadable one: named; a bad id: nothing read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-journal-'));
  try {
    expect(unsettled(dir, 'abc-1')).toBeUndefined();
    writeFileSync(join(dir, 'abc-1.json'), '{not json');
    expect(unsettled(dir, 'abc-1')).toStartWith(`its journal ${join(dir, 'abc-1.json')} cannot be read`);
    writeFileSync(join(dir, 'abc-2.json'), '{"some": "other shape"}');
    expect(unsettled(dir, 'abc-2')).toBe(`its journal ${join(dir, 'abc-2.json')} cannot be read`);
    expect(unsettled(dir, '../abc-1')).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
