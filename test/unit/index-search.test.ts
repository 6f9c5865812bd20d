/**
 * The name search of a SCIP index, read whole and as its on-disk table:
 * case folded for every letter (SQLite's lower() folds ASCII only), and
 * the first symbol the index names (number 0) found like any other.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { TableIndex, writeTable } from '../../src/scip/index-table';
import { ScipIndex } from '../../src/scip/scip-index';
import { SCIP_PROTO } from '../../src/scip/scip-schema';

const dir = mkdtempSync(join(tmpdir(), 'lspq-index-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARGER = 'scip-typescript npm names 1.0.0 src/`a.ts`/`Ärger`().';
const CALM = 'scip-typescript npm names 1.0.0 src/`a.ts`/calm.';

/** An index of one document whose first occurrence is Ärger's definition: the first symbol the index names. */
function writeIndex(): string {
  const Index = protobuf.parse(SCIP_PROTO).root.lookupType('scip.Index');
  const message = Index.create({
    metadata: { projectRoot: `file://${dir}`, toolInfo: { name: 'scip-typescript' } },
    documents: [
      {
        relativePath: 'src/a.ts',
        occurrences: [
          { range: [0, 16, 21], symbol: ARGER, symbolRoles: 1 },
          { range: [3, 13, 17], symbol: CALM, symbolRoles: 1 },
          { range: [3, 20, 25], symbol: ARGER, symbolRoles: 0 },
        ],
        symbols: [
          { symbol: ARGER, displayName: 'Ärger' },
          { symbol: CALM, displayName: 'calm' },
        ],
      },
    ],
  });
  const file = join(dir, 'index.scip');
  writeFileSync(file, Index.encode(message).finish());
  return file;
}

describe('search by name', () => {
  const file = writeIndex();
  const whole = ScipIndex.load(file, dir);
  const table = join(dir, 'index.sqlite');
  writeTable(whole, table);
  const tabled = new TableIndex(file, table);
  afterAll(() => tabled.close());

  for (const [label, index] of [
    ['read whole', whole],
    ['as a table', tabled],
  ] as const)
    test(`${label}: Ärger found as ärger, ÄRGER and rger; calm as CALM`, async () => {
      const names = async (query: string) =>
        (await index.search(query)).map((f) => `${f.name} ${f.place.line}:${f.place.character}`);
      for (const query of ['ärger', 'ÄRGER', 'Ärger', 'rger']) expect(await names(query)).toEqual(['Ärger 0:16']);
      expect(await names('CALM')).toEqual(['calm 3:13']);
      expect(await names('nothing')).toEqual([]);
    });
});
