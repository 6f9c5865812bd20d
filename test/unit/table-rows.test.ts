import { describe, expect, test } from 'bun:test';
import { rowOf, rowsOf } from '../../src/scip/table-rows';

describe('index table rows', () => {
  test('a row of the shape comes back as it is; none is undefined', () => {
    expect(rowOf({ id: 'int', encoding: 'encoding' }, { id: 3, encoding: 'utf-16' }, 't')).toEqual({
      id: 3,
      encoding: 'utf-16',
    });
    expect(rowOf({ id: 'int' }, null, 't')).toBeUndefined();
    expect(rowOf({ display: 'text?', start: 'int?' }, { display: null, start: null }, 't')).toEqual({
      display: null,
      start: null,
    });
  });

  test('a row of another shape is refused, naming the table', () => {
    expect(() => rowOf({ id: 'int' }, { id: '3' }, 'x.db')).toThrow('x.db has a row of another shape');
    expect(() => rowOf({ encoding: 'encoding' }, { encoding: 'latin-1' }, 'x.db')).toThrow('another shape');
    expect(() => rowsOf({ a: 'text' }, [{ a: 'ok' }, { b: 'no' }], 'x.db')).toThrow('another shape');
    expect(rowsOf({ a: 'text' }, [{ a: 'ok' }], 'x.db')).toEqual([{ a: 'ok' }]);
  });
});
