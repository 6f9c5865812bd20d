/**
 * Index answers on published projects hold the places and `in` names the
 * server's answer holds, for every kind of occurrence: a local or a
 * parameter is its document's alone (SCIP's `local N`), an implementation
 * is found from the index's relationships, an interface member's refs
 * hold the member implementing it, a file edited a moment ago is looked at
 * when asked, and where the index records nothing the answer says so.
 * immer's and query-core's TypeScript with scip-typescript, gorilla/mux's Go
 * with scip-go, anyhow's Rust with rust-analyzer's (scripts/install-servers.sh's
 * published_sources); the differential harness
 * then compares index and server at occurrences drawn by a fixed seed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { asker, chooseOccurrences, ownDaemon, report, type Target, twoViews } from '../helpers/differential';
import { anyhowAt, immerAt, muxAt, queryCoreAt } from '../helpers/published';
import { Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const made: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  source: string;
  locations: { path: string; line: number; column: number; in?: { name: string; kind: string } }[];
  stale?: string[];
}
const places = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column}`);
const within = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column} in ${l.in?.name ?? '-'}`);

async function indexed(name: string, make: (dir: string) => string): Promise<string> {
  const dir = make(scratchDir(name));
  made.push(dir);
  const r = await lspq.run(['index', '--timeout', '600'], { cwd: dir });
  expect(r.exit).toBe(0);
  return dir;
}

describe('immer 11.2.10 with scip-typescript', () => {
  let root = '';
  beforeAll(async () => {
    root = await indexed('index-views-immer', immerAt);
  }, 600_000);
  const ask = (args: string[]) => lspq.json<Answer>(args, { cwd: root });

  test("a local's refs are its own file's uses, each in the function that holds it, as the server's", async () => {
    const fromIndex = await ask(['refs', 'src/core/current.ts:25:copy', '--index-only']);
    const uses = [31, 34, 37, 38, 38, 43, 50].map(
      (line, i) => `src/core/current.ts:${line}:${[3, 3, 17, 12, 19, 8, 9][i]} in currentImpl`,
    );
    expect([fromIndex.source, within(fromIndex)]).toEqual(['index', uses]);
    // The server names a callback too (the index records no range for a function passed as a value).
    const fromServer = await ask(['refs', 'src/core/current.ts:25:copy', '--no-index']);
    expect(within(fromServer)).toEqual(
      uses.map((u) => (u.startsWith('src/core/current.ts:43:') ? `${u}.each() callback` : u)),
    );
    // --include-declaration adds the local's declaration, as the server's answer does.
    const declared = await ask(['refs', 'src/core/current.ts:25:copy', '--index-only', '--include-declaration']);
    expect(places(declared)).toEqual(['src/core/current.ts:25:6', ...places(fromIndex)]);
  });

  test("a local's and a parameter's hover is its own, not another file's local of the same number", async () => {
    const copy = await lspq.run(['hover', 'src/core/current.ts:25:copy', '--index-only'], { cwd: root });
    expect([copy.exit, copy.stdout]).toEqual([0, '```ts\nvar copy: any\n```\n']);
    const path = await lspq.run(['hover', 'src/plugins/patches.ts:108:path', '--index-only'], { cwd: root });
    expect([path.exit, path.stdout]).toEqual([0, '```ts\n(parameter) path: PatchPath\n```\n']);
  });

  test('impls of an interface from the index: the class that implements it, as the server answers', async () => {
    const fromIndex = await ask(['impls', 'src/core/immerClass.ts:40:ProducersFns', '--index-only']);
    expect([fromIndex.source, places(fromIndex)]).toEqual(['index', ['src/core/immerClass.ts:47:14']]);
    const fromServer = await ask(['impls', 'src/core/immerClass.ts:40:ProducersFns', '--no-index']);
    expect(places(fromServer)).toEqual(['src/core/immerClass.ts:47:14']);
  });

  test("an interface member's refs hold the class member implementing it, declaration included", async () => {
    const expected = [
      'src/core/immerClass.ts:84:2',
      'src/core/immerClass.ts:96:17',
      'src/core/immerClass.ts:146:23',
      'src/core/immerClass.ts:229:15',
      'src/immer.ts:50:56',
    ];
    const fromIndex = await ask(['refs', 'src/core/immerClass.ts:41:produce', '--index-only']);
    expect([fromIndex.source, places(fromIndex)]).toEqual(['index', expected]);
    expect(places(await ask(['refs', 'src/core/immerClass.ts:41:produce', '--no-index']))).toEqual(expected);
    // Where the index records a range (a method's), `in` is the server's; a field's arrow function has none.
    expect(within(fromIndex)[3]).toBe('src/core/immerClass.ts:229:15 in Immer.applyPatches');
  });

  test('hover --index-only where the index records nothing is exit 3, not "no hover information"', async () => {
    // scip-typescript records where the standard library's Symbol is used, and nothing of what it is.
    const alone = await lspq.run(['hover', 'src/utils/env.ts:6:Symbol', '--index-only'], { cwd: root });
    expect([alone.exit, alone.stdout, alone.stderr]).toEqual([
      3,
      '',
      'lspq: the index has no hover information of Symbol (not recorded by scip-typescript); drop --index-only to ask the live server\n',
    ]);
    // Without --index-only, the live server has it.
    const live = await lspq.run(['hover', 'src/utils/env.ts:6:Symbol'], { cwd: root });
    expect([live.exit, live.stdout]).toEqual([0, '```typescript\nvar Symbol: SymbolConstructor\n```\n']);
  });
});

describe('@tanstack/query-core 5.108.4 with scip-typescript', () => {
  let root = '';
  beforeAll(async () => {
    root = await indexed('index-views-query-core', queryCoreAt);
  }, 600_000);

  test("a type named in JSDoc tags elsewhere: refs are the server's with them, --index-only says it lacks them", async () => {
    const alone = await lspq.run(['refs', 'src/types.ts:828:InfiniteData', '--index-only'], { cwd: root });
    expect([alone.exit, alone.stderr.trim().split('\n').pop()]).toEqual([
      3,
      "lspq: the answer may be incomplete: scip-typescript's index leaves out the JSDoc tags that name it, which TypeScript counts (src/queryClient.ts:704); drop --index-only to ask the live server",
    ]);
    const asked = await lspq.json<Answer>(['refs', 'src/types.ts:828:InfiniteData'], { cwd: root });
    const server = await lspq.json<Answer>(['refs', 'src/types.ts:828:InfiniteData', '--no-index'], { cwd: root });
    expect([asked.source, places(asked)]).toEqual(['server', places(server)]);
    expect(places(asked)).toContain('src/queryClient.ts:704:13');
    expect(places(asked)).toContain('src/queryClient.ts:713:53');
  });
});

describe("anyhow 1.0.98 with rust-analyzer's index", () => {
  let root = '';
  beforeAll(async () => {
    root = await indexed('index-views-anyhow', anyhowAt);
  }, 600_000);

  test("a method's `in` is its impl's type and the method, as rust-analyzer's outline names it", async () => {
    const fromIndex = await lspq.json<Answer>(['refs', 'src/chain.rs:18:next', '--index-only'], { cwd: root });
    const fromServer = await lspq.json<Answer>(['refs', 'src/chain.rs:18:next', '--no-index', '--timeout', '300'], {
      cwd: root,
    });
    expect(within(fromIndex).slice(0, 3)).toEqual([
      'src/chain.rs:30:41 in Chain.new',
      'src/chain.rs:40:22 in Chain.next',
      'src/chain.rs:60:26 in Chain.next_back',
    ]);
    expect(within(fromIndex)).toEqual(within(fromServer));
  }, 360_000); // rust-analyzer loads the crate on its first question: minutes on loaded cores

  test("a type's uses as Self in its impl blocks: the server's answer, or --index-only says it lacks them", async () => {
    const alone = await lspq.run(['refs', 'src/error.rs:821:ErrorImpl', '--index-only'], { cwd: root });
    expect([alone.exit, alone.stderr.trim().split('\n').pop()]).toEqual([
      3,
      "lspq: the answer may be incomplete: rust-analyzer's index leaves out the uses as `Self` in its impl blocks, which rust-analyzer counts (src/error.rs:1091); drop --index-only to ask the live server",
    ]);
    const asked = await lspq.json<Answer>(['refs', 'src/error.rs:821:ErrorImpl', '--timeout', '300'], { cwd: root });
    expect([asked.source, places(asked)]).toContainEqual('server');
    expect(places(asked)).toContain('src/error.rs:1091:42');
  });
});

describe('immer: an edit the watch has not read yet', () => {
  test("refs asked again at once after a call is added in another file: that file is stale, not 'stale: []'", async () => {
    // Past a watch limit of one folder, the watch looks at the other folders only when a question reads it.
    const own = new Lspq();
    const root = immerAt(scratchDir('index-views-edit'));
    made.push(root);
    const env = { LSPQ_TEST_WATCH_LIMIT: '1' };
    try {
      expect((await own.run(['index', '--timeout', '600'], { cwd: root, env })).exit).toBe(0);
      const target = 'src/utils/common.ts:46:isDraftable';
      for (let i = 0; i < 4; i++) {
        const warm = await own.json<Answer>(['refs', target, '--index-only'], { cwd: root, env });
        expect(warm.stale).toEqual([]);
      }
      // current.ts imports it already: one more call there.
      appendFileSync(join(root, 'src/core/current.ts'), '\nexport const again = isDraftable({})\n');
      const r = await own.run(['refs', target, '--index-only', '--json'], { cwd: root, env });
      const answer = JSON.parse(r.stdout) as Answer;
      expect([r.exit, answer.stale]).toEqual([3, ['src/core/current.ts']]);
      // Without --index-only, the live server answers, the new call with the others.
      const added = readFileSync(join(root, 'src/core/current.ts'), 'utf8').split('\n').length - 1;
      const live = await own.json<Answer>(['refs', target], { cwd: root, env });
      expect([live.source, places(live)]).toEqual([
        'server',
        expect.arrayContaining([`src/core/current.ts:${added}:22`]),
      ]);
    } finally {
      expect(await own.stop()).toEqual([]);
    }
  });
});

describe('gorilla/mux 1.8.1 with scip-go', () => {
  let root = '';
  beforeAll(async () => {
    root = await indexed('index-views-mux', muxAt);
  }, 600_000);
  const ask = (args: string[]) => lspq.json<Answer>(args, { cwd: root });

  test("a local's and a parameter's refs are the server's", async () => {
    const path = await ask(['refs', 'mux.go:177:path', '--index-only']);
    const uses = ['mux.go:179:4', 'mux.go:182:21', 'mux.go:182:33'].map((p) => `${p} in Router.ServeHTTP`);
    expect([path.source, within(path)]).toEqual(['index', uses]);
    expect(within(await ask(['refs', 'mux.go:177:path', '--no-index']))).toEqual(uses);
    const req = await ask(['refs', 'mux.go:175:req', '--index-only']);
    expect(within(req)).toEqual(within(await ask(['refs', 'mux.go:175:req', '--no-index'])));
    expect(places(req)).toHaveLength(9);
  });

  test("a method's refs hold the uses through the interface it implements, in its package, as gopls's", async () => {
    const fromIndex = await ask(['refs', 'mux.go:175:ServeHTTP', '--index-only']);
    const fromServer = await ask(['refs', 'mux.go:175:ServeHTTP', '--no-index']);
    expect([fromIndex.source, within(fromIndex)]).toEqual(['index', within(fromServer)]);
    // handler is an http.Handler; the external test package's next.ServeHTTP is not counted (nor by gopls).
    expect(within(fromIndex)).toContain('mux.go:212:10 in Router.ServeHTTP');
    expect(places(fromIndex)).not.toContain('example_authentication_middleware_test.go:31:9');
  });

  test("an interface method's refs hold the uses of the methods implementing it, as gopls's", async () => {
    const fromIndex = await ask(['refs', 'route.go:172:Match', '--index-only']);
    const fromServer = await ask(['refs', 'route.go:172:Match', '--no-index']);
    expect(fromIndex.source).toBe('index');
    expect(within(fromIndex)).toEqual(within(fromServer));
    expect(within(fromIndex)).toContain('mux.go:198:7 in Router.ServeHTTP');
  });

  test("`in` where a signature is cut across lines, and in a type declared on one line, as gopls's", async () => {
    const fromIndex = await ask(['refs', 'route.go:275:Route', '--index-only']);
    const fromServer = await ask(['refs', 'route.go:275:Route', '--no-index']);
    expect(within(fromIndex)).toContain('mux.go:301:19 in Router.HandleFunc');
    expect(within(fromIndex)).toContain('mux.go:373:27 in WalkFunc');
    expect(within(fromIndex)).toEqual(within(fromServer));
  });
});

describe('the differential harness: index against server at occurrences of every kind', () => {
  const SEED = 20261127;
  const SAMPLE = 8;
  test.each([
    ['immer', immerAt, ['.ts'], ['--server', 'typescript']],
    ['mux', muxAt, ['.go'], []],
  ] as const)(
    '%s: the places of refs agree',
    async (name, make, extensions, server) => {
      const root = make(scratchDir(`index-views-diff-${name}`));
      made.push(root);
      const base = lspq.env();
      const chooser = ownDaemon(base);
      let targets: Target[];
      try {
        const ask = asker(root, chooser.env);
        expect((await ask(['index', '--timeout', '600'])).exit).toBe(0);
        targets = await chooseOccurrences(ask, root, [...extensions], SAMPLE, SEED);
      } finally {
        await chooser.done();
      }
      const c = await twoViews(
        'index against server at occurrences',
        root,
        base,
        targets,
        ['--index-only'],
        ['--no-index', ...server],
      );
      expect([report(name, c), c.asked]).toEqual([report(name, { ...c, differences: [] }), SAMPLE]);
    },
    600_000,
  ); // an index of mux built, then sixteen cold and warm answers: minutes on two loaded cores
});
