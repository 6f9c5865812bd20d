/** An index's root read from its first bytes (the table's key) as protobufjs reads the whole index. */
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownRoot } from '../../src/scip/scip-index';
import { HEAD_FIELDS, rootMetadata, statedRootOf, types } from '../../src/scip/scip-types';

const dir = mkdtempSync(join(tmpdir(), 'lspq-scip-head-'));

test("the head's field numbers are SCIP's schema's", () => {
  const t = types();
  expect<number[]>([HEAD_FIELDS.metadata, HEAD_FIELDS.projectRoot]).toEqual([
    t.index.metadata,
    t.metadata.fields.projectRoot!.id,
  ]);
});

test("an index's first metadata names its root, after fields before it; none, or not here: undefined", () => {
  const t = types();
  const writer = t.protobuf.Writer.create();
  // A document first (field 2, a relative path), then the metadata of lspq's own index, then another metadata.
  writer.uint32((t.index.documents << 3) | 2).bytes(Buffer.from([0x0a, 0x04, 0x61, 0x2e, 0x67, 0x6f]));
  const file = join(dir, 'index.scip');
  writeFileSync(file, Buffer.concat([Buffer.from(writer.finish()), rootMetadata(dir), rootMetadata('/elsewhere')]));
  expect(statedRootOf(file)).toBe(`file://${dir}`);
  expect(ownRoot(file)).toBe(dir);
  writeFileSync(file, rootMetadata('/no/such/folder/here'));
  expect([statedRootOf(file), ownRoot(file)]).toEqual(['file:///no/such/folder/here', undefined]);
  writeFileSync(file, '<html>not an index</html>\n');
  expect(statedRootOf(file)).toBeUndefined();
  expect(statedRootOf(join(dir, 'missing.scip'))).toBeUndefined();
  rmSync(dir, { recursive: true, force: true });
});
