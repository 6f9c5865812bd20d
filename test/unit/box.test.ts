/**
 * The Landlock box's pure parts: the rights each ABI handles, the rules a
 * box's rules become, the argv through lspq, PATH as execvp reads it, the
 * fast guard against the zod shape, and the seccomp filter, run by a small
 * classic-BPF interpreter over the calls it must refuse and allow.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidates, isBoxRules } from '../../src/box/box-entry';
import { boxArgv, FS, handled, handledFs, pathRules } from '../../src/box/landlock';
import { BoxRulesShape } from '../../src/box/rules-shape';
import { noSocketsFilter, type SeccompArch, seccompArch } from '../../src/box/seccomp';

describe('handled rights', () => {
  test('every filesystem right of the ABI, downgraded as the kernel docs do', () => {
    expect(handledFs(1)).toBe(0x1fff);
    expect(handledFs(2)).toBe(0x3fff);
    expect(handledFs(3)).toBe(0x7fff);
    expect(handledFs(4)).toBe(0x7fff);
    expect(handledFs(5)).toBe(0xffff);
    expect(handledFs(7)).toBe(0xffff);
  });

  test('TCP is handled (refused) only without network and from ABI 4; signals and abstract sockets scoped from ABI 6', () => {
    const off = { read: [], write: [], network: false };
    const on = { ...off, network: true };
    expect(handled(off, 3)).toEqual({ fs: 0x7fff, net: 0, scoped: 0 });
    expect(handled(off, 4)).toEqual({ fs: 0x7fff, net: 3, scoped: 0 });
    expect(handled(on, 4)).toEqual({ fs: 0x7fff, net: 0, scoped: 0 });
    expect(handled(off, 6)).toEqual({ fs: 0xffff, net: 3, scoped: 3 });
    expect(handled(on, 6)).toEqual({ fs: 0xffff, net: 0, scoped: 3 });
  });
});

test('read paths get read, list and run; write paths every right; every program /proc and the devices', () => {
  const rules = pathRules({ read: ['/usr', '/work/a.txt'], write: ['/tmp/scratch'], network: false }, 3);
  const read = FS.READ_FILE | FS.READ_DIR | FS.EXECUTE;
  expect(rules.slice(0, 3)).toEqual([
    { path: '/usr', rights: read },
    { path: '/work/a.txt', rights: read },
    { path: '/tmp/scratch', rights: 0x7fff },
  ]);
  const rest = new Map(rules.slice(3).map((r) => [r.path, r.rights]));
  expect(rest.get('/proc')).toBe(FS.READ_FILE | FS.READ_DIR);
  // ABI 3: no IOCTL_DEV to give.
  const device = FS.READ_FILE | FS.WRITE_FILE | FS.TRUNCATE;
  for (const dev of ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'])
    expect(rest.get(dev)).toBe(device);
  expect(rest.get('/dev/pts')).toBe(device | FS.READ_DIR);
  expect(rest.size).toBe(8);
  // ABI 1 knows no TRUNCATE: a right the ruleset does not handle is never given.
  expect(pathRules({ read: [], write: [], network: false }, 1).find((r) => r.path === '/dev/null')?.rights).toBe(
    FS.READ_FILE | FS.WRITE_FILE,
  );
});

test('boxArgv runs the program through lspq __box, the rules as one JSON word', () => {
  const rules = { read: ['/usr'], write: ['/tmp/s'], network: false };
  expect(boxArgv(['/bin/lspq'], rules, ['git', '--version'])).toEqual([
    '/bin/lspq',
    '__box',
    '{"read":["/usr"],"write":["/tmp/s"],"network":false}',
    '--',
    'git',
    '--version',
  ]);
  expect(boxArgv(['bun', 'src/main.ts'], rules, ['true']).slice(0, 3)).toEqual(['bun', 'src/main.ts', '__box']);
});

test('PATH is searched as execvp does, without its relative and empty entries', () => {
  expect(candidates('git', '/usr/local/bin:bin::/usr/bin/')).toEqual(['/usr/local/bin/git', '/usr/bin/git']);
  expect(candidates('./x', '/usr/bin')).toEqual(['./x']);
  expect(candidates('/usr/bin/git', '/nowhere')).toEqual(['/usr/bin/git']);
  expect(candidates('git', undefined)).toEqual(['/bin/git', '/usr/bin/git']);
});

test('the fast guard takes exactly what the zod shape takes', () => {
  const values: unknown[] = [
    { read: [], write: [], network: false },
    { read: ['/usr', '/etc'], write: ['/tmp/x'], network: true },
    { read: [''], write: [], network: false },
    { read: ['/usr'], write: [], network: 'false' },
    { read: ['/usr'], write: [], network: 0 },
    { read: '/usr', write: [], network: false },
    { read: [1], write: [], network: false },
    { read: [], write: [null], network: false },
    { read: [], network: false },
    { read: [], write: [], network: false, extra: 1 },
    { read: [], write: [], network: false, ['__proto__']: 1 },
    JSON.parse('{"read":[],"write":[],"network":false,"__proto__":{"x":1}}'),
    [],
    null,
    'rules',
    7,
  ];
  for (const value of values)
    expect([value, isBoxRules(value)]).toEqual([value, BoxRulesShape.safeParse(value).success]);
  expect(values.filter(isBoxRules).length).toBe(2);
});

/** Runs a classic BPF program over a seccomp_data (nr, arch) as the kernel would; returns what it returns. */
function runFilter(filter: Uint8Array, nr: number, arch: number): number {
  const view = new DataView(filter.buffer, filter.byteOffset, filter.byteLength);
  const data = new DataView(new ArrayBuffer(64));
  data.setInt32(0, nr, true);
  data.setUint32(4, arch, true);
  let a = 0;
  for (let pc = 0; pc * 8 < filter.byteLength; pc++) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    if (code === 0x20) a = data.getUint32(k, true);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else throw new Error(`unknown BPF code ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the filter fell off its end');
}

describe('the seccomp filter', () => {
  const KILL = 0x80000000;
  const ALLOW = 0x7fff0000;
  const errnoRet = (n: number) => 0x00050000 | n;
  const x64 = seccompArch('x64') as SeccompArch;
  const arm64 = seccompArch('arm64') as SeccompArch;

  test('x86_64: socket is EACCES, io_uring_setup EPERM, socketpair and the rest allowed; other arches and x32 killed', () => {
    const f = noSocketsFilter(x64);
    expect(runFilter(f, 41, 0xc000003e)).toBe(errnoRet(13));
    expect(runFilter(f, 425, 0xc000003e)).toBe(errnoRet(1));
    for (const nr of [0, 1, 42, 53, 59, 62, 317, 426, 444]) expect(runFilter(f, nr, 0xc000003e)).toBe(ALLOW);
    // i386's socketcall (102) and socket (359), and x32's socket (41 | 0x40000000).
    expect(runFilter(f, 359, 0x40000003)).toBe(KILL);
    expect(runFilter(f, 102, 0x40000003)).toBe(KILL);
    expect(runFilter(f, 41 | 0x40000000, 0xc000003e)).toBe(KILL);
  });

  test('aarch64: socket (198) is EACCES, io_uring_setup EPERM, socketpair (199) allowed; arm32 killed', () => {
    const f = noSocketsFilter(arm64);
    expect(runFilter(f, 198, 0xc00000b7)).toBe(errnoRet(13));
    expect(runFilter(f, 425, 0xc00000b7)).toBe(errnoRet(1));
    expect(runFilter(f, 199, 0xc00000b7)).toBe(ALLOW);
    expect(runFilter(f, 41, 0xc00000b7)).toBe(ALLOW);
    expect(runFilter(f, 281, 0x40000028)).toBe(KILL);
  });

  test('no filter for an architecture it does not know', () => {
    expect(seccompArch('ia32')).toBeUndefined();
  });
});

test("the box's start loads bun:ffi and its own files, not zod (loaded only to say why rules are refused)", () => {
  const transpiler = new Bun.Transpiler({ loader: 'ts' });
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.startsWith('./')) return;
    const text = readFileSync(join(import.meta.dir, '..', '..', 'src', 'box', `${file.slice(2)}.ts`), 'utf8');
    for (const i of transpiler.scanImports(text)) if (i.kind === 'import-statement') visit(i.path);
  };
  visit('./box-entry');
  expect([...seen].sort()).toEqual(['./box-entry', './landlock', './seccomp', 'bun:ffi']);
});
