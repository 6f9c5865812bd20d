import { describe, expect, test } from 'bun:test';
import { readRecords } from '../../src/daemon/orphans';

describe('the orphans file', () => {
  test('keeps each record of a positive integer pid and a command line', () => {
    expect(readRecords('[{"pid":123,"cmdline":"gopls\\u0000serve"}]')).toEqual([{ pid: 123, cmdline: 'gopls\0serve' }]);
  });

  test('drops records no kill should take: pid 0, -1, a fraction, a string, no command line', () => {
    const text = JSON.stringify([
      { pid: 0, cmdline: 'a' },
      { pid: -1, cmdline: 'a' },
      { pid: 1.5, cmdline: 'a' },
      { pid: '77', cmdline: 'a' },
      { pid: 77 },
      { pid: 78, cmdline: '' },
      null,
      { pid: 79, cmdline: 'kept' },
    ]);
    expect(readRecords(text)).toEqual([{ pid: 79, cmdline: 'kept' }]);
  });

  test('reads nothing from a file that is not a JSON array', () => {
    expect(readRecords('{"pid":1,"cmdline":"a"}')).toEqual([]);
    expect(readRecords('[{"pid":1,')).toEqual([]);
    expect(readRecords('')).toEqual([]);
  });
});
