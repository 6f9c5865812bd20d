/**
 * GraphQL on a real schema: GitHub's (@octokit/graphql-schema, 1.2 MB of
 * SDL), a query against it and a .graphqlrc, as a client of GitHub's API
 * has them. def, hover, symbols and diag cold and again, a query edited
 * and taken back, and two questions at once. Then the release of that
 * schema that defines two fields twice: graphql-lsp cannot build it, logs
 * so, and answers every file "clean" and every definition with nothing;
 * lspq said "no problems" (exit 0). It now exits 3 naming the error.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const top = mkdtempSync(join(tmpdir(), 'lspq-graphql-github-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(top, { recursive: true, force: true });
});

const QUERY = `query Mine {
  viewer {
    login
    repositories(first: 5) {
      nodes {
        name
        stargazerCount
      }
    }
  }
}
`;

/** A client of GitHub's API with the schema of @octokit/graphql-schema `version`. */
function client(version: string): string {
  const root = join(top, version);
  mkdirSync(join(root, 'queries'), { recursive: true });
  copyFileSync(
    join(REPO, '.tools', 'projects', `github-schema-${version}`, 'schema.graphql'),
    join(root, 'schema.graphql'),
  );
  writeFileSync(join(root, '.graphqlrc.yml'), 'schema: schema.graphql\ndocuments: "queries/**/*.graphql"\n');
  writeFileSync(join(root, 'queries', 'mine.graphql'), QUERY);
  git(root, 'init', '-q');
  return root;
}

const STARGAZERS =
  '```graphql\nRepository.stargazerCount: Int!\n```\n\nReturns a count of how many stargazers there are on this object\n';

describe("GitHub's schema (15.25.0)", () => {
  const root = client('15.25.0');
  const ask = (args: string[]) => lspq.run(args, { cwd: root });

  test('cold: def of a field, and of a root field, into the schema (its description first)', async () => {
    const viewer = await ask(['def', 'queries/mine.graphql:2:viewer']);
    expect([viewer.stdout, viewer.exit]).toEqual(['schema.graphql:39590:3: """\n', 0]);
    const stars = await ask(['def', 'queries/mine.graphql:7:stargazerCount']);
    expect([stars.stdout, stars.exit]).toEqual(['schema.graphql:45509:3: """\n', 0]);
  });

  test('hover, asked twice', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await ask(['hover', 'queries/mine.graphql:7:stargazerCount']);
      expect([r.stdout, r.exit]).toEqual([STARGAZERS, 0]);
    }
  });

  test('symbols of the query file', async () => {
    const r = await ask(['symbols', 'queries/mine.graphql']);
    expect([r.stdout, r.exit]).toEqual([
      [
        'queries/mine.graphql:1:1: class Mine',
        'queries/mine.graphql:2:3:   field viewer',
        'queries/mine.graphql:3:5:     field login',
        'queries/mine.graphql:4:5:     field repositories',
        'queries/mine.graphql:5:7:       field nodes',
        'queries/mine.graphql:6:9:         field name',
        'queries/mine.graphql:7:9:         field stargazerCount',
        '',
      ].join('\n'),
      0,
    ]);
  });

  test('diag: clean, a field misspelt on disk, then taken back', async () => {
    const clean = await ask(['diag', 'queries/mine.graphql']);
    expect([clean.stdout, clean.exit]).toEqual(['', 0]);
    writeFileSync(join(root, 'queries', 'mine.graphql'), QUERY.replace('stargazerCount', 'stargazerCountz'));
    const broken = await ask(['diag', 'queries/mine.graphql']);
    expect([broken.stdout, broken.exit]).toEqual([
      'queries/mine.graphql:7:9: error: Cannot query field "stargazerCountz" on type "Repository". Did you mean "stargazerCount" or "stargazers"? [GraphQL: Validation]\n',
      1,
    ]);
    writeFileSync(join(root, 'queries', 'mine.graphql'), QUERY);
    const mended = await ask(['diag', 'queries/mine.graphql']);
    expect([mended.stdout, mended.exit]).toEqual(['', 0]);
  });

  test('hover and diag at once', async () => {
    const [h, d] = await Promise.all([
      ask(['hover', 'queries/mine.graphql:7:stargazerCount']),
      ask(['diag', 'queries/mine.graphql']),
    ]);
    expect([h.stdout, h.exit, d.stdout, d.exit]).toEqual([STARGAZERS, 0, '', 0]);
  });
});

describe("GitHub's schema 15.26.1, which does not build", () => {
  const root = client('15.26.1');
  const FAILED =
    'lspq: graphql-lsp could not load the project at ROOT: Field "EnterpriseOwnerInfo.repositoryDeployKeySetting" can only be defined once.; its answers would be empty, so it was stopped (fix the project; the next command starts it again)\n';

  test('diag exits 3 naming the field defined twice, where it said "no problems"; asked again, the same', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await lspq.run(['diag', 'queries/mine.graphql'], { cwd: root });
      expect([r.stdout, r.stderr, r.exit]).toEqual(['', FAILED.replace('ROOT', root), 3]);
    }
  });

  test('the schema mended (the release before): answered', async () => {
    copyFileSync(
      join(REPO, '.tools', 'projects', 'github-schema-15.25.0', 'schema.graphql'),
      join(root, 'schema.graphql'),
    );
    const r = await lspq.run(['def', 'queries/mine.graphql:2:viewer'], { cwd: root });
    expect([r.stdout, r.exit]).toEqual(['schema.graphql:39590:3: """\n', 0]);
  });
});
