/**
 * An empty answer against a full one, from typescript-language-server (the
 * server whose worker, tsserver, is checked on an empty answer): warm
 * `hover` on the `export` keyword (nothing to show) against hover on a
 * function's name, `refs` of a name nobody uses against one used once,
 * and `fmt --check` of a formatted file (no edit) against one with edits,
 * in a copy of the ts-shapes fixture. This build and the build
 * before it (bench/harness.ts beforeBuild), each with a daemon of its own,
 * all four sides interleaved. Prints markdown; `bun bench/empty-answers.ts`.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  beforeBuild,
  benchEnv,
  fmt,
  interleaved,
  LSPQ,
  median,
  ownDaemon,
  quantile,
  table,
  timeCommand,
} from './harness';
import { REPO } from './projects';

const work = mkdtempSync(join(tmpdir(), 'lspq-empty-'));
const dir = join(work, 'ts-shapes');
cpSync(join(REPO, 'test', 'fixtures', 'ts-shapes'), dir, { recursive: true });
writeFileSync(
  join(dir, 'src', 'unused.ts'),
  'export const unused = 1;\nexport const used = 2;\nexport const twice = used + 1;\n',
);
// One file its formatter would change, one it would leave as it is (no edit: an empty answer).
writeFileSync(join(dir, 'src', 'messy.ts'), 'export const  messy  =  1;\n');
writeFileSync(join(dir, 'src', 'tidy.ts'), 'export const tidy = 1;\n');
const TSLS = ['--server', 'typescript-language-server'];
const before = await beforeBuild();
const builds = [
  { name: 'this build', binary: LSPQ, env: ownDaemon({ ...benchEnv, LSPQ_TRUST: 'all' }, 'empty-this') },
  {
    name: `before (${before.commit.slice(0, 12)})`,
    binary: before.binary,
    env: ownDaemon({ ...benchEnv, LSPQ_TRUST: 'all' }, 'empty-before'),
  },
];
const questions: [string, string[], string[]][] = [
  ['hover', ['hover', 'src/geometry.ts:3:17'], ['hover', 'src/geometry.ts:3:1']],
  ['refs', ['refs', 'src/unused.ts:2:used'], ['refs', 'src/unused.ts:1:unused']],
  ['fmt --check', ['fmt', '--check', 'src/messy.ts'], ['fmt', '--check', 'src/tidy.ts']],
];
const rows: (string | number)[][] = [];
for (const [what, full, empty] of questions) {
  const sides = builds.flatMap((b) =>
    [full, empty].map((args) => async () => (await timeCommand([b.binary, ...args, ...TSLS], dir, b.env)).ms),
  );
  // Warm: each build's daemon and server up, each question asked once.
  for (const side of sides) await side();
  const times = await interleaved(sides);
  builds.forEach((b, i) => {
    const [f, e] = [times[2 * i]!, times[2 * i + 1]!];
    const spread = (xs: number[]) => `${fmt(quantile(xs, 0.1))}-${fmt(quantile(xs, 0.9))}`;
    rows.push([
      what,
      b.name,
      fmt(median(f)),
      spread(f),
      fmt(median(e)),
      spread(e),
      `${median(e) - median(f) >= 0 ? '+' : ''}${fmt(median(e) - median(f))}`,
    ]);
  });
}
console.log(
  table(
    [
      'question',
      'build',
      'full answer ms (median)',
      'p10-p90',
      'empty answer ms (median)',
      'p10-p90',
      'empty over full',
    ],
    rows,
  ),
);
for (const b of builds) await timeCommand([b.binary, 'daemon', 'stop'], dir, b.env);
rmSync(work, { recursive: true, force: true });
