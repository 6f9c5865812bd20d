/**
 * Monorepos: one server per workspace, and the same whole answer whichever
 * package asks, first or after other questions. Before, in an npm
 * workspace, refs asked from package a found a's own uses only (b's were
 * missing), rename broke package b with exit 0, and each package had a
 * TypeScript server of its own. Each workspace is its own git checkout;
 * every answer is checked line for line, and every edit by the language's
 * own checker (tsc, cargo check, go build, the interpreter) before it is
 * taken back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, Lspq, REPO, toolsPath } from '../helpers/lspq';
import {
  cargoWorkspace,
  goWorkspace,
  tanstackWorkspace,
  tsWorkspace,
  type TsWorkspaceKind,
  typescriptOnPath,
  uvWorkspace,
} from '../helpers/workspaces';

const made: string[] = [];
const daemons: Lspq[] = [];
const tscDir = typescriptOnPath();
made.push(tscDir);
const PATH = `${tscDir}:${toolsPath()}`;

afterAll(async () => {
  for (const d of daemons) expect(await d.stop()).toEqual([]);
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function daemon(): Lspq {
  const lspq = new Lspq();
  daemons.push(lspq);
  return lspq;
}

/** Runs a command to completion; its exit code and output. */
function run(argv: string[], cwd: string): { exit: number; out: string } {
  const r = Bun.spawnSync(argv, { cwd, env: { ...process.env, PATH }, stdin: 'ignore' });
  return { exit: r.exitCode ?? -1, out: r.stdout.toString() + r.stderr.toString() };
}

/** The servers the daemon runs, as id and root. */
async function serversOf(lspq: Lspq): Promise<string[]> {
  const status = await lspq.json<{ servers?: { id: string; root: string }[] }>(['daemon', 'status']);
  return (status.servers ?? []).map((s) => `${s.id} ${s.root}`).sort();
}

const TS_SERVERS = ['typescript', 'typescript-language-server'];
const KINDS: TsWorkspaceKind[] = ['npm', 'pnpm', 'references'];

/** Package a's references of `shared`, as printed from `cwd` ('a' or 'b') in a workspace at `root`. */
function sharedRefs(root: string, from: 'a' | 'b'): string {
  const a = from === 'a' ? 'src' : `${root}/packages/a/src`;
  const b = from === 'b' ? 'src' : `${root}/packages/b/src`;
  const lines = [
    `${a}/use.ts:1:10: import { shared } from './index';`,
    `${a}/use.ts:3:22: export const twice = shared(2);  (in twice)`,
    `${b}/main.ts:1:10: import { shared } from '@x/a';`,
    `${b}/main.ts:3:23: export const result = shared(3) + shared(4);  (in result)`,
    `${b}/main.ts:3:35: export const result = shared(3) + shared(4);  (in result)`,
  ];
  // In lspq's order: by the files' real paths, so package a's before package b's.
  return `${lines.join('\n')}\n`;
}

/** Type-checks every package: tsc -b over a solution, tsc -p per package otherwise. */
function typeChecks(root: string, kind: TsWorkspaceKind | 'tanstack'): string[] {
  const tsc = join(REPO, 'node_modules', '.bin', 'tsc');
  if (kind === 'references') {
    const r = run([tsc, '-b'], root);
    return r.exit === 0 ? [] : [r.out];
  }
  const packages = kind === 'tanstack' ? ['query-core', 'query-persist-client-core'] : ['a', 'b'];
  return packages.flatMap((p) => {
    const r = run([tsc, '-p', `packages/${p}`], root);
    return r.exit === 0 ? [] : [r.out];
  });
}

KINDS.forEach((kind, k) => {
  for (const server of TS_SERVERS) {
    describe(`${server}, ${kind} workspace`, () => {
      const lspq = daemon();
      const root = tsWorkspace(kind);
      made.push(root);
      const a = join(root, 'packages', 'a');
      const b = join(root, 'packages', 'b');
      const ask = (cwd: string, ...args: string[]) => lspq.run([...args, '--server', server], { cwd, env: { PATH } });
      const refsFromA = () => ask(a, 'refs', 'src/index.ts:1:shared');
      const refsFromB = () => ask(b, 'refs', 'src/main.ts:3:shared');
      // Half the workspaces are first asked from the declaring package, half from the using one.
      const first = k % 2 === 0 ? 'a' : 'b';

      test(`refs asked first from package ${first}, cold: both packages' uses`, async () => {
        const r = first === 'a' ? await refsFromA() : await refsFromB();
        expect([r.stdout, r.exit]).toEqual([sharedRefs(root, first), 0]);
      });

      test('asked from the other package: the same uses', async () => {
        const other = first === 'a' ? 'b' : 'a';
        const r = other === 'a' ? await refsFromA() : await refsFromB();
        expect([r.stdout, r.exit]).toEqual([sharedRefs(root, other), 0]);
      });

      test('one server, rooted at the workspace', async () => {
        expect(await serversOf(lspq)).toEqual([`${server} ${root}`]);
      });

      test('after other questions from both packages: the same again', async () => {
        expect((await ask(b, 'hover', 'src/main.ts:3:shared')).exit).toBe(0);
        expect((await ask(a, 'def', 'src/use.ts:3:shared')).stdout).toBe(
          'src/index.ts:1:17: export function shared(n: number): number {\n',
        );
        expect((await refsFromA()).stdout).toBe(sharedRefs(root, 'a'));
        expect((await refsFromB()).stdout).toBe(sharedRefs(root, 'b'));
      });

      test("impls from package a: package b's class", async () => {
        const r = await ask(a, 'impls', 'src/shape.ts:1:Shape');
        expect([r.stdout, r.exit]).toEqual([`${b}/src/square.ts:3:14: export class Square implements Shape {\n`, 0]);
      });

      test("calls (its callers) from package a: package b's caller too", async () => {
        const r = await lspq.json<{ calls: { item: { path: string } }[] }>(
          ['calls', 'src/index.ts:1:shared', '--server', server],
          { cwd: a, env: { PATH } },
        );
        expect(r.calls.map((c) => c.item.path).sort()).toEqual([`${b}/src/main.ts`, 'src/use.ts']);
      });

      test('rename from package a, --verify: every package renamed, and it type-checks', async () => {
        const r = await ask(a, 'rename', 'src/index.ts:1:shared', 'sharedPlus', '--verify');
        expect(r.exit).toBe(0);
        expect(git(root, 'diff', '--name-only').trim().split('\n')).toEqual([
          'packages/a/src/index.ts',
          'packages/a/src/use.ts',
          'packages/b/src/main.ts',
        ]);
        expect(readFileSync(join(b, 'src/main.ts'), 'utf8')).toBe(
          "import { sharedPlus } from '@x/a';\n\nexport const result = sharedPlus(3) + sharedPlus(4);\n",
        );
        expect(typeChecks(root, kind)).toEqual([]);
        git(root, 'checkout', '-q', '.');
        git(root, 'clean', '-qfdX', '--', 'packages');
      });

      test('after the rename was taken back: the same uses again', async () => {
        expect((await refsFromB()).stdout).toBe(sharedRefs(root, 'b'));
      });

      test("mv a file of package a: package b's import of it updated, and it type-checks", async () => {
        const r = await ask(b, 'mv', '../a/src/helper.ts', '../a/src/helpers.ts');
        expect(r.exit).toBe(0);
        expect(readFileSync(join(b, 'src/deep.ts'), 'utf8')).toBe(
          "import { helper } from '@x/a/src/helpers';\n\nexport const h = helper;\n",
        );
        expect(typeChecks(root, kind)).toEqual([]);
        git(root, 'checkout', '-q', '.');
        git(root, 'clean', '-qfd', '--', 'packages');
      });

      test("diag --all from package a: package b's error", async () => {
        writeFileSync(
          join(b, 'src/main.ts'),
          "import { shared } from '@x/a';\n\nexport const result: string = shared(3);\n",
        );
        const r = await ask(a, 'diag', '--all');
        expect(r.stdout).toContain(`${b}/src/main.ts:3:14: error`);
        expect(r.exit).toBe(1);
        git(root, 'checkout', '-q', '.');
      });

      test('symbols -w from package b: package a declares it', async () => {
        const r = await ask(b, 'symbols', '-w', 'shared');
        expect([r.stdout, r.exit]).toEqual([`${a}/src/index.ts:1:17: function shared\n`, 0]);
      });
    });
  }
});

describe('a workspace of more projects than lspq loads at once', () => {
  const lspq = daemon();
  const root = tsWorkspace('npm');
  made.push(root);
  beforeAll(() => {
    for (let i = 0; i < 257; i++) {
      mkdirSync(join(root, 'packages', `p${i}`, 'src'), { recursive: true });
      writeFileSync(join(root, 'packages', `p${i}`, 'tsconfig.json'), '{}\n');
      writeFileSync(join(root, 'packages', `p${i}`, 'src', 'index.ts'), 'export const x = 1;\n');
    }
  });

  test('refs says it cannot answer whole: exit 3, not a partial answer', async () => {
    const r = await lspq.run(['refs', 'src/index.ts:1:shared', '--server', 'typescript'], {
      cwd: join(root, 'packages', 'a'),
      env: { PATH },
    });
    expect([r.stdout, r.exit]).toEqual(['', 3]);
    expect(r.stderr).toBe(
      `lspq: ${root} holds 259 projects, more than the 256 lspq loads at once, so an answer across all of them cannot be whole; ask with --root the package the answer lies in\n`,
    );
  });
});

describe('a real monorepo: TanStack Query (query-core, query-persist-client-core)', () => {
  const root = tanstackWorkspace();
  made.push(root);
  const core = join(root, 'packages', 'query-core');
  const persist = join(root, 'packages', 'query-persist-client-core');
  const inCore = [
    'src/index.ts:34:3: hashKey,',
    "src/mutationObserver.ts:4:10: import { hashKey, shallowEqualObjects } from './utils'",
    'src/mutationObserver.ts:123:7: hashKey(prevOptions.mutationKey) !== hashKey(this.options.mutationKey)  (in MutationObserver.setOptions)',
    'src/mutationObserver.ts:123:44: hashKey(prevOptions.mutationKey) !== hashKey(this.options.mutationKey)  (in MutationObserver.setOptions)',
    'src/queryClient.ts:3:3: hashKey,',
    'src/queryClient.ts:948:29: this.#queryDefaults.set(hashKey(queryKey), {  (in QueryClient.setQueryDefaults)',
    'src/queryClient.ts:1008:32: this.#mutationDefaults.set(hashKey(mutationKey), {  (in QueryClient.setMutationDefaults)',
    'src/utils.ts:279:11: if (hashKey(mutation.options.mutationKey) !== hashKey(mutationKey)) {  (in matchMutation)',
    'src/utils.ts:279:53: if (hashKey(mutation.options.mutationKey) !== hashKey(mutationKey)) {  (in matchMutation)',
    "src/utils.ts:299:88: * Hashes a query key with the query's `queryKeyHashFn` option, falling back to {@link hashKey}.",
    'src/utils.ts:308:45: const hashFn = options?.queryKeyHashFn || hashKey  (in hashQueryKeyByOptions)',
  ];
  const inPersist = [
    'src/createPersister.ts:2:3: hashKey,',
    'src/createPersister.ts:386:48: if (persistedQuery.queryHash !== hashKey(queryKey)) {  (in experimental_createQueryPersister.restoreQueries)',
    'src/createPersister.ts:441:46: if (persistedQuery.queryHash !== hashKey(queryKey)) {  (in experimental_createQueryPersister.removeQueries)',
  ];
  /** hashKey's references, as printed from the package `from`. */
  const refs = (from: 'core' | 'persist') =>
    `${[
      ...inCore.map((l) => (from === 'core' ? l : `${core}/${l}`)),
      ...inPersist.map((l) => (from === 'persist' ? l : `${persist}/${l}`)),
    ].join('\n')}\n`;

  for (const server of TS_SERVERS) {
    describe(server, () => {
      const lspq = daemon();
      const ask = (cwd: string, ...args: string[]) => lspq.run([...args, '--server', server], { cwd, env: { PATH } });

      test('refs from the using package, cold: the uses in both packages', async () => {
        const r = await ask(persist, 'refs', 'src/createPersister.ts:386:hashKey');
        expect([r.stdout, r.exit]).toEqual([refs('persist'), 0]);
      });

      test('from the declaring package: the same', async () => {
        const r = await ask(core, 'refs', 'src/utils.ts:323:hashKey');
        expect([r.stdout, r.exit]).toEqual([refs('core'), 0]);
      });

      test('rename from the using package, --verify: both packages renamed, each type-checks', async () => {
        const r = await ask(persist, 'rename', 'src/createPersister.ts:386:hashKey', 'hashQueryKey', '--verify');
        expect(r.exit).toBe(0);
        expect(git(root, 'diff', '--name-only').trim().split('\n')).toEqual([
          'packages/query-core/src/index.ts',
          'packages/query-core/src/mutationObserver.ts',
          'packages/query-core/src/queryClient.ts',
          'packages/query-core/src/utils.ts',
          'packages/query-persist-client-core/src/createPersister.ts',
        ]);
        // Left: two mentions in doc comments' example code, which are not references.
        expect(git(root, 'grep', '-n', '\\bhashKey\\b', '--', 'packages').trim().split('\n')).toEqual([
          "packages/query-core/src/queryCache.ts:272:   * const queryHash = hashKey(['posts'])",
          'packages/query-core/src/utils.ts:320: * hashKey([\'todos\', { page: 1, filter: \'done\' }]) // === \'["todos",{"filter":"done","page":1}]\'',
        ]);
        expect(typeChecks(root, 'tanstack')).toEqual([]);
      });

      test('taken back: the same uses again', async () => {
        git(root, 'checkout', '-q', '.');
        expect((await ask(persist, 'refs', 'src/createPersister.ts:386:hashKey')).stdout).toBe(refs('persist'));
      });
    });
  }
});

describe('rust-analyzer, a Cargo workspace of two crates', () => {
  const lspq = daemon();
  const root = cargoWorkspace();
  made.push(root);
  const a = join(root, 'crates', 'a');
  const b = join(root, 'crates', 'b');
  const ask = (cwd: string, ...args: string[]) => lspq.run(args, { cwd, env: { PATH } });
  const fromB = `${a}/src/lib.rs:6:5: shared(2)  (in twice)\nsrc/main.rs:1:8: use a::shared;\nsrc/main.rs:4:20: println!("{}", shared(3) + a::twice());  (in main)\n`;
  const fromA = `src/lib.rs:6:5: shared(2)  (in twice)\n${b}/src/main.rs:1:8: use a::shared;\n${b}/src/main.rs:4:20: println!("{}", shared(3) + a::twice());  (in main)\n`;

  test('refs from the using crate, cold: both crates', async () => {
    const r = await ask(b, 'refs', 'src/main.rs:4:shared');
    expect([r.stdout, r.exit]).toEqual([fromB, 0]);
  });

  test('from the declaring crate: the same; one server, at the workspace', async () => {
    const r = await ask(a, 'refs', 'src/lib.rs:1:shared');
    expect([r.stdout, r.exit]).toEqual([fromA, 0]);
    expect(await serversOf(lspq)).toEqual([`rust-analyzer ${root}`]);
  });

  test('rename from the using crate, --verify: both crates renamed, cargo check passes', async () => {
    const r = await ask(b, 'rename', 'src/main.rs:4:shared', 'shared_plus', '--verify');
    expect(r.exit).toBe(0);
    expect(git(root, 'diff', '--name-only').trim().split('\n')).toEqual([
      'crates/a/src/lib.rs',
      'crates/b/src/main.rs',
    ]);
    expect(run(['cargo', 'check', '--offline', '--quiet'], root)).toEqual({ exit: 0, out: '' });
    git(root, 'checkout', '-q', '.');
    expect((await ask(a, 'refs', 'src/lib.rs:1:shared')).stdout).toBe(fromA);
  });
});

for (const server of ['pyright', 'basedpyright', 'pylsp']) {
  describe(`${server}, a uv workspace of two packages`, () => {
    const lspq = daemon();
    const root = uvWorkspace();
    made.push(root);
    const a = join(root, 'packages', 'a');
    const b = join(root, 'packages', 'b');
    const ask = (cwd: string, ...args: string[]) => lspq.run([...args, '--server', server], { cwd, env: { PATH } });
    const uses = [
      'src/pkg_b/main.py:1:19: from pkg_a import shared',
      'src/pkg_b/main.py:3:10: RESULT = shared(3) + shared(4)',
      'src/pkg_b/main.py:3:22: RESULT = shared(3) + shared(4)',
    ];
    const fromA = `src/pkg_a/__init__.py:5:9: TWICE = shared(2)\n${uses.map((l) => `${b}/${l}`).join('\n')}\n`;
    const fromB = `${a}/src/pkg_a/__init__.py:5:9: TWICE = shared(2)\n${uses.join('\n')}\n`;

    test('refs from the declaring package, cold: both packages', async () => {
      const r = await ask(a, 'refs', 'src/pkg_a/__init__.py:1:shared');
      expect([r.stdout, r.exit]).toEqual([fromA, 0]);
    });

    test('from the using package: the same; one server, at the workspace', async () => {
      const r = await ask(b, 'refs', 'src/pkg_b/main.py:3:shared');
      expect([r.stdout, r.exit]).toEqual([fromB, 0]);
      expect(await serversOf(lspq)).toEqual([`${server} ${root}`]);
    });

    if (server !== 'pylsp')
      test('rename from the using package, --verify: both renamed, and it runs', async () => {
        const r = await ask(b, 'rename', 'src/pkg_b/main.py:3:shared', 'shared_plus', '--verify');
        expect(r.exit).toBe(0);
        expect(git(root, 'diff', '--name-only').trim().split('\n')).toEqual([
          'packages/a/src/pkg_a/__init__.py',
          'packages/b/src/pkg_b/main.py',
        ]);
        const python = join(root, '.venv', 'bin', 'python');
        expect(run([python, '-c', 'from pkg_b.main import RESULT; print(RESULT)'], root)).toEqual({
          exit: 0,
          out: '14\n',
        });
        git(root, 'checkout', '-q', '.');
      });
  });
}

describe('gopls, a go.work of two modules', () => {
  const lspq = daemon();
  const root = goWorkspace();
  made.push(root);
  const a = join(root, 'a');
  const b = join(root, 'b');
  const ask = (cwd: string, ...args: string[]) => lspq.run(args, { cwd, env: { PATH } });
  const fromB = `${a}/a.go:8:9: return Shared(2)  (in Twice)\nmain.go:10:16: fmt.Println(a.Shared(3) + a.Twice())  (in main)\n`;
  const fromA = `a.go:8:9: return Shared(2)  (in Twice)\n${b}/main.go:10:16: fmt.Println(a.Shared(3) + a.Twice())  (in main)\n`;

  test('refs from the using module, cold: both modules', async () => {
    const r = await ask(b, 'refs', 'main.go:10:Shared');
    expect([r.stdout, r.exit]).toEqual([fromB, 0]);
  });

  test('from the declaring module: the same; one server, at the go.work', async () => {
    const r = await ask(a, 'refs', 'a.go:3:Shared');
    expect([r.stdout, r.exit]).toEqual([fromA, 0]);
    expect(await serversOf(lspq)).toEqual([`gopls ${root}`]);
  });

  test('rename from the using module, --verify: both renamed, go build passes', async () => {
    const r = await ask(b, 'rename', 'main.go:10:Shared', 'SharedPlus', '--verify');
    expect(r.exit).toBe(0);
    expect(git(root, 'diff', '--name-only').trim().split('\n')).toEqual(['a/a.go', 'b/main.go']);
    expect(run(['go', 'build', './a/...', './b/...'], root)).toEqual({ exit: 0, out: '' });
    git(root, 'checkout', '-q', '.');
  });
});
