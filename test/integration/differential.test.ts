/**
 * The differential harness's share of the suite (test/helpers/differential.ts;
 * the full run is bench/differential.ts): on real published projects, a
 * small sample of symbols chosen by a fixed seed, whose references must be
 * the same cold and warm, and from two servers of one language, unless the
 * difference is one lspq names (exit 3) or docs/servers.md documents.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  asker,
  chooseTargets,
  coldAgainstWarm,
  type Comparison,
  KNOWN_BETWEEN_SERVERS,
  ownDaemon,
  report,
  stagedAgainstCheckout,
  type Target,
  twoViews,
  untrustedAgainstTrusted,
} from '../helpers/differential';
import { muxAt } from '../helpers/published';
import { containmentFor } from '../../src/box/containment';
import { git, Lspq, REPO, scratchDir } from '../helpers/lspq';

const SEED = 20261127;
const SAMPLE = 6;
const base = new Lspq().env();
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function copyOf(name: string, from: string, marker?: string): string {
  const dir = scratchDir(name);
  copies.push(dir);
  cpSync(from, dir, { recursive: true });
  if (marker) writeFileSync(join(dir, marker), '{}\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'as published');
  return dir;
}

async function targetsOf(root: string, extensions: string[], server?: string): Promise<Target[]> {
  const daemon = ownDaemon(base);
  try {
    return await chooseTargets(asker(root, daemon.env), root, extensions, SAMPLE, SEED, server);
  } finally {
    await daemon.done();
  }
}

/** Every difference named or documented: none left that lspq answered with exit 0 and did not say. */
function agrees(name: string, c: Comparison): void {
  expect([report(name, c), c.asked]).toEqual([report(name, { ...c, differences: [] }), SAMPLE]);
  expect(c.differences).toEqual([]);
}

describe('httpx 0.28.1', () => {
  const root = copyOf('diff-httpx', join(REPO, '.tools', 'sources', 'httpx-0.28.1'));
  test('pyright: cold against warm; pyright against basedpyright', async () => {
    const targets = await targetsOf(root, ['.py']);
    agrees('httpx', await coldAgainstWarm(root, base, targets, 3, ['--server', 'pyright']));
    const what = 'pyright against basedpyright';
    agrees(
      'httpx',
      await twoViews(
        what,
        root,
        base,
        targets,
        ['--server', 'pyright'],
        ['--server', 'basedpyright'],
        undefined,
        KNOWN_BETWEEN_SERVERS[what],
      ),
    );
  }, 600_000); // six cold daemons of pyright and two warm ones: minutes on loaded cores
});

describe('monolog 2.9.1', () => {
  const root = copyOf('diff-monolog', join(REPO, '.tools', 'php-src'), 'composer.json');
  test('intelephense: cold against warm', async () => {
    agrees('monolog', await coldAgainstWarm(root, base, await targetsOf(root, ['.php']), 3));
  });
});

describe("lspq's own TypeScript", () => {
  test('TypeScript 7: cold against warm; TypeScript 7 against typescript-language-server', async () => {
    const targets = await targetsOf(REPO, ['.ts'], 'typescript');
    agrees('lspq', await coldAgainstWarm(REPO, base, targets, 3, ['--server', 'typescript', '--no-index']));
    agrees(
      'lspq',
      await twoViews(
        'typescript against typescript-language-server',
        REPO,
        base,
        targets,
        ['--server', 'typescript', '--no-index'],
        ['--server', 'typescript-language-server', '--no-index'],
      ),
    );
  });
});

describe('gorilla/mux 1.8.1: the staged view against a checkout of the staged tree', () => {
  test('gopls: diag --staged, and the hook form --staged --since HEAD --all, with an unstaged error beside', async () => {
    const root = muxAt(scratchDir('diff-mux-staged'));
    copies.push(root);
    const targets = (await targetsOf(root, ['.go'])).slice(0, 2);
    for (const c of await stagedAgainstCheckout(root, base, targets)) {
      expect([report('mux', c), c.asked]).toEqual([report('mux', { ...c, differences: [] }), 2]);
    }
  });
});

/** The boxes this machine makes: untrusted answers in each must be the trusted ones. */
const boxes = (['bubblewrap', 'landlock'] as const).filter((kind) => {
  const f = containmentFor({ ...base, LSPQ_BOX: kind });
  return 'box' in f && f.box.kind === kind;
});

describe.each(boxes)('untrusted in the %s box against trusted', (box) => {
  test('httpx with pyright', async () => {
    const root = copyOf(`diff-httpx-${box}`, join(REPO, '.tools', 'sources', 'httpx-0.28.1'));
    const targets = await targetsOf(root, ['.py'], 'pyright');
    agrees('httpx', await untrustedAgainstTrusted(root, base, targets, box, ['--server', 'pyright']));
  });
  test("lspq's own TypeScript with its TypeScript 7 (the workspace's, in node_modules)", async () => {
    const targets = await targetsOf(REPO, ['.ts'], 'typescript');
    agrees('lspq', await untrustedAgainstTrusted(REPO, base, targets, box, ['--server', 'typescript', '--no-index']));
  });
});
