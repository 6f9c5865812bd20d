/**
 * GraphQL with graphql-lsp (graphql-language-service-cli): a schema, the
 * queries against it and a .graphqlrc, as a project has them. The first
 * question to a cold server is right: it loads the config and the schema
 * after initialize and answered a definition with nothing until then
 * (exit 1); it is ready once it logs that its caches are initialized.
 * Then def, hover, symbols and diag, asked again, and after a query file is
 * added and removed on disk.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const root = mkdtempSync(join(tmpdir(), 'lspq-graphql-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(root, { recursive: true, force: true });
});
const SCHEMA = `type Query {
  shape(id: ID!): Shape
  shapes: [Shape!]!
}

interface Shape {
  id: ID!
  area: Float!
}

type Circle implements Shape {
  id: ID!
  area: Float!
  radius: Float!
}
`;
const QUERIES = `query AllShapes {
  shapes {
    id
    area
    ... on Circle {
      radius
    }
  }
}

query Broken {
  shapes {
    perimeter
  }
}
`;
writeFileSync(join(root, 'schema.graphql'), SCHEMA);
writeFileSync(join(root, 'queries.graphql'), QUERIES);
writeFileSync(join(root, '.graphqlrc.yml'), 'schema: schema.graphql\ndocuments: "*.graphql"\n');
git(root, 'init', '-q');

const ask = (args: string[]) => lspq.run([...args, '--server', 'graphql-lsp'], { cwd: root });
const RADIUS = 'schema.graphql:14:3: radius: Float!\n';
const BROKEN = 'queries.graphql:13:5: error: Cannot query field "perimeter" on type "Shape". [GraphQL: Validation]\n';

describe('graphql-lsp', () => {
  test('cold, the first question: def of a field from a query into the schema', async () => {
    const r = await ask(['def', 'queries.graphql:6:radius']);
    expect([r.stdout, r.exit]).toEqual([RADIUS, 0]);
  });

  test('with --no-daemon, a server of its own, cold: the same', async () => {
    const r = await ask(['def', 'queries.graphql:6:radius', '--no-daemon']);
    expect([r.stdout, r.exit]).toEqual([RADIUS, 0]);
  });

  test('def of a root field, asked again: the same place each time', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await ask(['def', 'queries.graphql:2:shapes']);
      expect([r.stdout, r.exit]).toEqual(['schema.graphql:3:3: shapes: [Shape!]!\n', 0]);
    }
  });

  test('hover: the field and its type', async () => {
    const r = await ask(['hover', 'queries.graphql:6:radius']);
    expect([r.stdout, r.exit]).toEqual(['```graphql\nCircle.radius: Float!\n```\n', 0]);
  });

  test('symbols of a query file as a tree, and of the workspace by name', async () => {
    const file = await ask(['symbols', 'queries.graphql', '--kind', 'class']);
    expect([file.stdout, file.exit]).toEqual([
      'queries.graphql:1:1: class AllShapes\nqueries.graphql:11:1: class Broken\n',
      0,
    ]);
    const ws = await ask(['symbols', '-w', 'Circle']);
    expect([ws.stdout, ws.exit]).toEqual(['schema.graphql:11:6: class Circle\n', 0]);
  });

  test('diag: the field the schema does not have', async () => {
    const r = await ask(['diag', 'queries.graphql']);
    expect([r.stdout, r.exit]).toEqual([BROKEN, 1]);
  });

  test('a query file added on disk is checked and navigable; removed, the others are as before', async () => {
    const more = join(root, 'more.graphql');
    writeFileSync(more, 'query More {\n  shape(id: "1") {\n    area\n    size\n  }\n}\n');
    const diag = await ask(['diag', 'more.graphql']);
    expect([diag.stdout, diag.exit]).toEqual([
      'more.graphql:4:5: error: Cannot query field "size" on type "Shape". [GraphQL: Validation]\n',
      1,
    ]);
    const def = await ask(['def', 'more.graphql:2:shape']);
    expect([def.stdout, def.exit]).toEqual(['schema.graphql:2:3: shape(id: ID!): Shape\n', 0]);
    unlinkSync(more);
    const back = await ask(['diag', 'queries.graphql']);
    expect([back.stdout, back.exit]).toEqual([BROKEN, 1]);
  });
});
