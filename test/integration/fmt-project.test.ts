/**
 * fmt with the project's own formatter: where its configuration names one
 * (prettier, ruff, black), that formatter decides what "formatted" means,
 * run as the project has it (its node_modules/.bin, its .venv), and the
 * answer says so; what fmt writes is byte for byte what the formatter
 * itself writes. @tanstack/query-core formats with prettier: its files
 * that prettier calls clean are clean. Not trusted, the formatter (its
 * program and its configuration, which are code) runs in the box, and
 * nothing it tries gets out; where no box can be made, the server's
 * formatter answers and the answer says the project's was left out.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { containmentFor } from '../../src/box/containment';
import { escaped, escapeTargets, jsPayload, leftInBoxes, shPayload } from '../helpers/escapes';
import { exactPath, git, Lspq, REPO, toolsPath } from '../helpers/lspq';
import { queryCoreAt } from '../helpers/published';

const lspq = new Lspq();
const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-fmt-project-')));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const PRETTIER = join(REPO, '.tools', 'node_modules', 'prettier');
const VENV_BIN = join(REPO, '.tools', 'venv', 'bin');

function write(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mode !== undefined) chmodSync(path, mode);
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** The project has prettier of its own: the package in its node_modules and the command in node_modules/.bin. */
function ownPrettier(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(PRETTIER, join(dir, 'node_modules', 'prettier'));
  symlinkSync('../prettier/bin/prettier.cjs', join(dir, 'node_modules', '.bin', 'prettier'));
}

/** The project has a Python environment of its own with `commands` in its bin. */
function ownVenv(dir: string, commands: string[]): void {
  write(join(dir, '.venv', 'pyvenv.cfg'), `home = ${VENV_BIN}\n`);
  mkdirSync(join(dir, '.venv', 'bin'));
  for (const c of commands) symlinkSync(join(VENV_BIN, c), join(dir, '.venv', 'bin', c));
}

/** What the project's formatter itself prints for `text` as the file `file`, run as the project runs it. */
function formattedBy(dir: string, argv: string[], text: string): string {
  const r = Bun.spawnSync(argv, { cwd: dir, stdin: new TextEncoder().encode(text), env: { PATH: toolsPath() } });
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** @tanstack/query-core's prettier configuration, as its repository has it. */
const QUERY_PRETTIER = `// @ts-check

/** @type {import('prettier').Config} */
const config = {
  semi: false,
  singleQuote: true,
  trailingComma: 'all',
}

export default config
`;

const PRETTIER_NOTE = (verb: string) =>
  `lspq: ${verb} with prettier, as prettier.config.js asks (node_modules/.bin/prettier)\n`;

describe('@tanstack/query-core formats with prettier: its configuration decides', () => {
  const dir = join(base, 'query-core');
  mkdirSync(dir);
  queryCoreAt(dir);
  write(join(dir, 'prettier.config.js'), QUERY_PRETTIER);
  ownPrettier(dir);
  const prettier = (file: string, text: string) =>
    formattedBy(dir, [join(dir, 'node_modules', '.bin', 'prettier'), '--stdin-filepath', file], text);
  const utils = read(dir, 'src/utils.ts');
  const client = read(dir, 'src/queryClient.ts');

  test('fmt --check src/utils.ts src/queryClient.ts: clean, as prettier --check says (the server flags both)', async () => {
    const own = Bun.spawnSync(
      [join(dir, 'node_modules', '.bin', 'prettier'), '--check', 'src/utils.ts', 'src/queryClient.ts'],
      {
        cwd: dir,
        env: { PATH: toolsPath() },
      },
    );
    expect(own.exitCode).toBe(0);
    expect(await lspq.run(['fmt', '--check', 'src/utils.ts', 'src/queryClient.ts'], { cwd: dir })).toEqual({
      stdout: '',
      stderr: PRETTIER_NOTE('checked'),
      exit: 0,
    });
    // Asked by name, the server's formatter has its own idea of both.
    const server = await lspq.run(
      ['fmt', '--check', 'src/utils.ts', 'src/queryClient.ts', '--server', 'typescript-language-server'],
      { cwd: dir },
    );
    expect(server).toEqual({ stdout: 'src/utils.ts\nsrc/queryClient.ts\n', stderr: '', exit: 1 });
  });

  test('a file un-formatted is flagged, and fmt --write writes exactly what prettier writes', async () => {
    const messy = client
      .replace("import { focusManager } from './focusManager'\n", 'import {focusManager} from "./focusManager";\n')
      .replace('export class QueryClient {', 'export   class QueryClient{');
    expect(messy).not.toBe(client);
    writeFileSync(join(dir, 'src/queryClient.ts'), messy);
    expect(await lspq.run(['fmt', '--check', 'src/queryClient.ts', 'src/utils.ts'], { cwd: dir })).toEqual({
      stdout: 'src/queryClient.ts\n',
      stderr: PRETTIER_NOTE('checked'),
      exit: 1,
    });
    const json = await lspq.json(['fmt', 'src/queryClient.ts'], { cwd: dir });
    // Who answered is the formatter, and the folder it ran in (its configuration's), as a server and its root are.
    expect([json.files, json.formatters, json.server, json.root, json.servers]).toEqual([
      [{ path: 'src/queryClient.ts', changed: true, edits: 2, lines: 2, formatter: 'prettier' }],
      [{ name: 'prettier', by: 'project', config: 'prettier.config.js', binary: 'node_modules/.bin/prettier' }],
      'prettier',
      dir,
      [{ server: 'prettier', root: dir }],
    ]);
    const written = await lspq.run(['fmt', '--write', 'src/queryClient.ts'], { cwd: dir });
    expect(written).toEqual({
      stdout: 'src/queryClient.ts: 2 lines changed\n',
      stderr: PRETTIER_NOTE('formatted'),
      exit: 0,
    });
    expect(read(dir, 'src/queryClient.ts')).toBe(prettier('src/queryClient.ts', messy));
    expect(read(dir, 'src/queryClient.ts')).toBe(client);
  });

  test('--range: only the edits that touch those lines are written', async () => {
    const messy = `${utils.replace('export function noop() {}', 'export function noop() {   }')}export const  late = 1;\n`;
    writeFileSync(join(dir, 'src/utils.ts'), messy);
    const line = messy.split('\n').findIndex((l) => l.includes('noop() {   }')) + 1;
    const r = await lspq.run(['fmt', 'src/utils.ts', '--range', `${line}-${line}`, '--write'], { cwd: dir });
    expect(r).toEqual({ stdout: 'src/utils.ts: 1 line changed\n', stderr: PRETTIER_NOTE('formatted'), exit: 0 });
    expect(read(dir, 'src/utils.ts')).toBe(`${utils}export const  late = 1;\n`);
    writeFileSync(join(dir, 'src/utils.ts'), utils);
  });

  test('a file prettier cannot parse: one line naming it and the syntax error, exit 3, nothing written', async () => {
    write(join(dir, 'src/broken.ts'), 'export const x = (1\n');
    expect(await lspq.run(['fmt', '--write', 'src/broken.ts'], { cwd: dir })).toEqual({
      stdout: '',
      stderr:
        "lspq: prettier cannot parse src/broken.ts: SyntaxError: ')' expected. (2:1); fix the syntax error, then format\n",
      exit: 3,
    });
    expect(read(dir, 'src/broken.ts')).toBe('export const x = (1\n');
    rmSync(join(dir, 'src/broken.ts'));
  });
});

describe('Python: ruff and black as the project configures them', () => {
  test('ruff ([tool.ruff.format], its own .venv): clean is clean, and --write writes what ruff format writes', async () => {
    const dir = join(base, 'ruff');
    write(
      join(dir, 'pyproject.toml'),
      '[project]\nname = "p"\nversion = "0"\n\n[tool.ruff]\nline-length = 60\n\n[tool.ruff.format]\nquote-style = "single"\n',
    );
    git(dir, 'init', '-q');
    ownVenv(dir, ['ruff']);
    const messy = 'x = {"a": 1, "bbbbbbbbbbbbbbbbbbbbbbbbbbb": 2, "cccccccccccccccccccccccc": 3}\n';
    const ruff = formattedBy(dir, [join(dir, '.venv/bin/ruff'), 'format', '--stdin-filename', 'app.py', '-'], messy);
    expect(ruff).toBe(
      "x = {\n    'a': 1,\n    'bbbbbbbbbbbbbbbbbbbbbbbbbbb': 2,\n    'cccccccccccccccccccccccc': 3,\n}\n",
    );
    write(join(dir, 'clean.py'), ruff);
    write(join(dir, 'app.py'), messy);
    const note = (verb: string) => `lspq: ${verb} with ruff, as pyproject.toml asks (.venv/bin/ruff)\n`;
    expect(await lspq.run(['fmt', '--check', 'clean.py', 'app.py'], { cwd: dir })).toEqual({
      stdout: 'app.py\n',
      stderr: note('checked'),
      exit: 1,
    });
    expect(await lspq.run(['fmt', '--write', 'app.py'], { cwd: dir })).toEqual({
      stdout: 'app.py: 5 lines changed\n',
      stderr: note('formatted'),
      exit: 0,
    });
    expect(read(dir, 'app.py')).toBe(ruff);
  });

  test('black ([tool.black] line-length 40, its own .venv): its verdict, not ruff server’s', async () => {
    const dir = join(base, 'black');
    write(join(dir, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n\n[tool.black]\nline-length = 40\n');
    git(dir, 'init', '-q');
    ownVenv(dir, ['black']);
    const messy = 'x = {"a": 1, "bbbbbbbbbbbb": 2, "cccccccccc": 3}\n';
    const black = formattedBy(dir, [join(dir, '.venv/bin/black'), '-q', '--stdin-filename', 'app.py', '-'], messy);
    expect(black).toBe('x = {\n    "a": 1,\n    "bbbbbbbbbbbb": 2,\n    "cccccccccc": 3,\n}\n');
    write(join(dir, 'clean.py'), black);
    write(join(dir, 'app.py'), messy);
    const note = (verb: string) => `lspq: ${verb} with black, as pyproject.toml asks (.venv/bin/black)\n`;
    expect(await lspq.run(['fmt', '--check', 'clean.py', 'app.py'], { cwd: dir })).toEqual({
      stdout: 'app.py\n',
      stderr: note('checked'),
      exit: 1,
    });
    expect(await lspq.run(['fmt', '--write', 'app.py'], { cwd: dir })).toEqual({
      stdout: 'app.py: 5 lines changed\n',
      stderr: note('formatted'),
      exit: 0,
    });
    expect(read(dir, 'app.py')).toBe(black);
  });
});

describe('Rust: a rustfmt.toml', () => {
  test('rustfmt runs with it and the crate’s edition: --write writes what rustfmt writes', async () => {
    const dir = join(base, 'rust');
    write(join(dir, 'Cargo.toml'), '[package]\nname = "r"\nversion = "0.1.0"\nedition = "2021"\n');
    write(join(dir, 'rustfmt.toml'), 'hard_tabs = true\n');
    git(dir, 'init', '-q');
    const messy = 'fn main() {\n    let x = async { 1 };\n    let _ = x;\n}\n';
    write(join(dir, 'src/main.rs'), messy);
    const rustfmt = formattedBy(dir, ['rustfmt', '--edition', '2021', '--config-path', 'rustfmt.toml'], messy);
    expect(rustfmt).toBe('fn main() {\n\tlet x = async { 1 };\n\tlet _ = x;\n}\n');
    const r = await lspq.run(['fmt', '--write', 'src/main.rs'], { cwd: dir });
    expect([r.stdout, r.stderr.replace(/\(\/.*\)\n$/, '(PATH)'), r.exit]).toEqual([
      'src/main.rs: 2 lines changed\n',
      'lspq: formatted with rustfmt, as rustfmt.toml asks (PATH)',
      0,
    ]);
    expect(read(dir, 'src/main.rs')).toBe(rustfmt);
  });
});

describe('no formatter of the project’s', () => {
  test('no configuration: the server formats as it always did, and the note and the JSON name it', async () => {
    const dir = join(base, 'plain');
    write(join(dir, 'package.json'), '{"name":"plain","private":true}\n');
    write(join(dir, 'a.ts'), 'export const a  =  1;\n');
    git(dir, 'init', '-q');
    expect(await lspq.run(['fmt', '--check', 'a.ts'], { cwd: dir })).toEqual({
      stdout: 'a.ts\n',
      stderr: 'lspq: checked with typescript-language-server (the project names no formatter)\n',
      exit: 1,
    });
    const json = await lspq.json(['fmt', 'a.ts'], { cwd: dir });
    expect([json.files, json.formatters, json.server, json.root]).toEqual([
      [{ path: 'a.ts', changed: true, edits: expect.any(Number), lines: 1, formatter: 'typescript-language-server' }],
      [{ name: 'typescript-language-server', by: 'server' }],
      'typescript-language-server',
      dir,
    ]);
  });

  test('named but installed nowhere: one line naming it and its install, exit 3', async () => {
    const dir = join(base, 'uninstalled');
    write(join(dir, '.prettierrc'), '{ "semi": false }\n');
    write(join(dir, 'a.ts'), 'export const a = 1;\n');
    git(dir, 'init', '-q');
    const path = exactPath(['node']);
    try {
      expect(await lspq.run(['fmt', '--check', 'a.ts'], { cwd: dir, env: { PATH: path } })).toEqual({
        stdout: '',
        stderr:
          "lspq: prettier is not installed, and .prettierrc names it the project's formatter: install it (npm install --save-dev prettier), or give --server to format with the server's formatter\n",
        exit: 3,
      });
    } finally {
      rmSync(path, { recursive: true, force: true });
    }
  });
});

/** The boxes this machine makes. */
const kinds = (['bubblewrap', 'landlock'] as const).filter((kind) => {
  const f = containmentFor({ PATH: toolsPath(), LSPQ_BOX: kind });
  return 'box' in f && f.box.kind === kind;
});

describe.each(kinds)('not trusted, in the %s box', (kind) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `lspq-fmt-boxed-${kind}-`)));
  const dir = join(root, 'proj');
  const untrusted = new Lspq({ trusting: false, box: kind });
  let targets: Awaited<ReturnType<typeof escapeTargets>>;
  const realHome = process.env.HOME ?? '/root';
  const env = () => ({
    HOME: targets.targets.home,
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(realHome, '.rustup'),
    CARGO_HOME: process.env.CARGO_HOME ?? join(realHome, '.cargo'),
  });
  const messy = 'export const a  =  "x";\n';

  afterAll(async () => {
    targets.stop();
    expect(await untrusted.stop()).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });

  test('the project’s prettier and its configuration run contained: the answer is theirs, nothing gets out', async () => {
    mkdirSync(dir, { recursive: true });
    targets = await escapeTargets(root, dir, untrusted.socket);
    const t = targets.targets;
    write(join(dir, 'package.json'), '{"name":"p","private":true}\n');
    write(
      join(dir, 'prettier.config.cjs'),
      `${jsPayload(t, 'prettier-config')}module.exports = { semi: false, singleQuote: true }\n`,
    );
    const real = Bun.which('prettier', { PATH: toolsPath() });
    if (!real) throw new Error('prettier is not installed for the tests');
    write(join(dir, 'node_modules/.bin/prettier'), shPayload(t, 'prettier', real), 0o755);
    write(join(dir, 'src/a.ts'), messy);
    git(dir, 'init', '-q');
    const r = await untrusted.run(['fmt', '--write', 'src/a.ts'], { cwd: dir, env: env() });
    expect(r).toEqual({
      stdout: 'src/a.ts: 1 line changed\n',
      stderr: 'lspq: formatted with prettier, as prettier.config.cjs asks (node_modules/.bin/prettier)\n',
      exit: 0,
    });
    expect(read(dir, 'src/a.ts')).toBe("export const a = 'x'\n");
    // Both ran, in the box; nothing was written outside it or in the workspace, nothing reached.
    expect(leftInBoxes(join(untrusted.dir, 'cache'))).toEqual(
      expect.arrayContaining(['ran-prettier', 'ran-prettier-config']),
    );
    expect(leftInBoxes(join(untrusted.dir, 'cache')).filter((f) => !f.startsWith('ran-'))).toEqual([]);
    expect(escaped(t)).toEqual([]);
    expect(targets.reached).toEqual([]);
  });

  test('with no box (LSPQ_BOX=off): the server’s formatter answers and says the project’s was left out', async () => {
    write(join(dir, 'src/a.ts'), messy);
    const off = { ...env(), LSPQ_BOX: 'off' };
    const json = await untrusted.json(['fmt', 'src/a.ts'], { cwd: dir, env: off });
    expect([json.files, json.formatters, json.notes]).toEqual([
      [
        {
          path: 'src/a.ts',
          changed: true,
          edits: expect.any(Number),
          lines: 1,
          formatter: 'typescript-language-server',
        },
      ],
      [
        {
          name: 'typescript-language-server',
          by: 'server',
          passedOver: { name: 'prettier', config: 'prettier.config.cjs' },
        },
      ],
      [
        `left out the project's formatter prettier (prettier.config.cjs): the workspace is not trusted, and no box can be made here (LSPQ_BOX=off) (lspq trust ${dir} lets it run)`,
      ],
    ]);
    const check = await untrusted.run(['fmt', '--check', 'src/a.ts'], { cwd: dir, env: off });
    expect(check).toEqual({
      stdout: 'src/a.ts\n',
      stderr: `lspq: warning: left out the project's formatter prettier (prettier.config.cjs): the workspace is not trusted, and no box can be made here (LSPQ_BOX=off) (lspq trust ${dir} lets it run)\nlspq: checked with typescript-language-server's formatter, not prettier (prettier.config.cjs), which was left out\n`,
      // The server's verdict is not the project's check.
      exit: 3,
    });
    const written = await untrusted.run(['fmt', '--write', 'src/a.ts'], { cwd: dir, env: off });
    expect(written.exit).toBe(0);
    expect(read(dir, 'src/a.ts')).toBe('export const a = "x";\n');
    // trust --explain lists it among what trusting lets run.
    const explained = await untrusted.json<{ wouldRun: { what: string; files: string[] }[] }>(['trust', '--explain'], {
      cwd: dir,
      env: off,
    });
    expect(explained.wouldRun).toContainEqual({
      what: "the project's formatter prettier",
      files: ['prettier.config.cjs'],
    });
    // Nothing of the workspace's ran outside a box.
    expect(escaped(targets.targets)).toEqual([]);
    expect(targets.reached).toEqual([]);
  });
});
