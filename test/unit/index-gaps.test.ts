/** Uses a live server counts that an index does not record, found in an answer's files' text. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unrecordedUse } from '../../src/engine/index-gaps';
import { TextSource } from '../../src/lsp/convert';

const dir = mkdtempSync(join(tmpdir(), 'lspq-gaps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

test('a JSDoc tag naming the symbol, a member link and a parameter included', () => {
  const ts = file(
    'a.ts',
    'import { Page } from "./b"\n/**\n * Resolves to {@link Page} or\n * @param count - how many\n */\nexport function f(count: number): Page {}\n',
  );
  const at = (name: string) => unrecordedUse([{ path: ts, line: 6, column: 18 }], name, new TextSource());
  expect(at('Page')).toEqual({ path: ts, line: 3, what: 'the JSDoc tags that name it, which TypeScript counts' });
  expect(at('count')?.line).toBe(4);
  expect(at('Pag')).toBeUndefined();
  const linked = file('c.ts', '/** @see {@link Cache#findAll} */\nconst x = 1\n');
  expect(unrecordedUse([{ path: linked, line: 2, column: 7 }], 'findAll', new TextSource())?.line).toBe(1);
});

test("Rust: Self inside the type's own impl block, not inside a block of another type implementing it", () => {
  const rs = file(
    'e.rs',
    'struct ErrorImpl;\n\nimpl ErrorImpl {\n    fn error(this: Ref<Self>) {}\n}\n\nimpl Display for Other {\n    fn fmt(&self) -> Self {}\n}\n',
  );
  expect(unrecordedUse([{ path: rs, line: 3, column: 6 }], 'ErrorImpl', new TextSource())).toEqual({
    path: rs,
    line: 4,
    what: 'the uses as `Self` in its impl blocks, which rust-analyzer counts',
  });
  // Display is the trait here: Self is Other.
  expect(unrecordedUse([{ path: rs, line: 7, column: 6 }], 'Display', new TextSource())).toBeUndefined();
  expect(unrecordedUse([{ path: rs, line: 7, column: 18 }], 'Other', new TextSource())?.line).toBe(8);
});
