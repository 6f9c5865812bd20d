/**
 * Contained by construction: a workspace the user has not trusted runs its
 * own programs (its servers, TypeScript, plugins, interpreter, build
 * scripts, git's filters and lazy fetches) inside the box, and each of
 * them, when it runs, tries every way out (tests/helpers/escapes.ts): a
 * file written outside or in the workspace, a secret in the user's home
 * read, a TCP port reached. Untrusted, each payload runs (its `ran-` file
 * is in its box's scratch), none gets out, and the answers are the ones
 * the trusted workspace gives. For each box this machine makes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  chmodSync,
  cpSync,
  lstatSync,
  readdirSync,
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
import { ANSWERS, hostileWorkspace, type Layout, marksIn } from '../helpers/hostile-workspace';
import { FIXTURES, git, Lspq, REPO, toolsPath } from '../helpers/lspq';

const real = (command: string) => {
  const found = Bun.which(command, { PATH: toolsPath() });
  if (!found) throw new Error(`${command} is not installed for the tests`);
  return found;
};

/**
 * typescript-language-server makes the file "Move to a new file" creates
 * itself, empty, before its edit: where a dangling link stands at that
 * name, it would write outside, and lspq's taking back of the empty file
 * removed the link. Nothing outside may be left, and the link stays.
 */
async function moveThroughLink(lspq: Lspq, base: string, env: Record<string, string>): Promise<void> {
  const dir = join(base, 'move');
  cpSync(join(FIXTURES, 'ts-shapes'), dir, { recursive: true });
  writeFileSync(
    join(dir, 'src/main.ts'),
    readFileSync(join(dir, 'src/main.ts'), 'utf8').replace("import { Circle } from './circle';\n", ''),
  );
  const outside = join(base, 'move-outside');
  mkdirSync(outside, { recursive: true });
  symlinkSync(join(outside, 'shapes.ts'), join(dir, 'src', 'shapes.ts'));
  await lspq.run(
    ['actions', 'src/main.ts:5:Circle', '--apply', '2', '--dry-run', '--server', 'typescript-language-server'],
    { cwd: dir, env },
  );
  expect(readdirSync(outside)).toEqual([]);
  expect(lstatSync(join(dir, 'src', 'shapes.ts')).isSymbolicLink()).toBe(true);
}

/** The boxes this machine makes: bubblewrap where installed, Landlock where the kernel has it. */
const kinds = (['bubblewrap', 'landlock'] as const).filter((kind) => {
  const f = containmentFor({ PATH: toolsPath(), LSPQ_BOX: kind });
  return 'box' in f && f.box.kind === kind;
});

function write(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mode !== undefined) chmodSync(path, mode);
}

describe.each(kinds)('in the %s box', (kind) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `lspq-contained-${kind}-`)));
  const project = join(base, 'proj');
  mkdirSync(project, { recursive: true });
  const lspq = new Lspq({ trusting: false, box: kind });
  const trusted = new Lspq();
  let targets: Awaited<ReturnType<typeof escapeTargets>>;
  // The test's HOME holds the secret; the toolchains stay where they are, named.
  const realHome = process.env.HOME ?? '/root';
  const env = () => ({
    HOME: targets.targets.home,
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(realHome, '.rustup'),
    CARGO_HOME: process.env.CARGO_HOME ?? join(realHome, '.cargo'),
    PYENV_ROOT: process.env.PYENV_ROOT ?? join(realHome, '.pyenv'),
    GOPATH: process.env.GOPATH ?? join(realHome, 'go'),
  });
  const cache = () => lspq.env().XDG_CACHE_HOME ?? '';

  beforeAll(async () => {
    targets = await escapeTargets(base, project, lspq.socket);
  });
  afterAll(async () => {
    targets.stop();
    expect(await lspq.stop()).toEqual([]);
    expect(await trusted.stop()).toEqual([]);
    rmSync(base, { recursive: true, force: true });
  });

  test('lspq servers and trust --explain say the box', async () => {
    const r = await lspq.run(['servers'], { cwd: project, env: env() });
    expect(r.stdout).toContain(`untrusted workspaces: contained (${kind === 'bubblewrap' ? 'bubblewrap' : 'Landlock'}`);
    const explained = await lspq.json<{ contained: boolean; box: string }>(['trust', '--explain'], {
      cwd: project,
      env: env(),
    });
    expect(explained.contained).toBe(true);
  });

  describe('TypeScript: the workspace’s own server and its yarn tsserver run, contained', () => {
    const dir = join(base, 'ts');
    beforeAll(() => {
      const t = { ...targets.targets, project: dir };
      write(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"plugins":[{"name":"evil-plugin"}]}}\n');
      write(join(dir, 'package.json'), '{"name":"p","private":true}\n');
      write(join(dir, 'src/lib.ts'), 'export function twice(n: number): number {\n  return n * 2;\n}\n');
      write(join(dir, 'src/app.ts'), "import { twice } from './lib';\nexport const four = twice(2);\n");
      write(
        join(dir, 'node_modules/.bin/typescript-language-server'),
        shPayload(t, 'tsls', real('typescript-language-server')),
        0o755,
      );
      const tsserver = join(dirname(dirname(realpathSync(real('tsserver')))), 'lib', 'tsserver.js');
      write(
        join(dir, '.yarn/sdks/typescript/lib/tsserver.js'),
        `${jsPayload(t, 'yarn-tsserver')}require(${JSON.stringify(tsserver)});\n`,
      );
      write(join(dir, '.yarn/sdks/typescript/package.json'), '{"name":"typescript","version":"5.9.3"}\n');
      write(join(dir, 'node_modules/evil-plugin/package.json'), '{"name":"evil-plugin","main":"index.js"}\n');
      write(
        join(dir, 'node_modules/evil-plugin/index.js'),
        `${jsPayload(t, 'ts-plugin')}module.exports = () => ({ create: (i) => i.languageService });\n`,
      );
      // What the user's own environment would load from the workspace: never passed into the box.
      write(join(dir, 'node_modules/dotenv/config.js'), jsPayload(t, 'node-options'));
      write(join(dir, 'node_modules/dotenv/package.json'), '{"name":"dotenv","version":"16.0.0"}\n');
    });

    test('def and refs are exact; each payload ran in the box; none got out', async () => {
      const ask = (args: string[]) =>
        lspq.run([...args, '--server', 'typescript-language-server'], {
          cwd: dir,
          env: { ...env(), NODE_OPTIONS: '--require dotenv/config' },
        });
      const def = await ask(['def', 'src/app.ts:2:twice']);
      expect(def.stderr).toBe('');
      expect(def.stdout).toBe('src/lib.ts:1:17: export function twice(n: number): number {\n');
      expect(def.exit).toBe(0);
      const refs = await ask(['refs', 'src/lib.ts:1:twice']);
      expect(refs.stdout).toBe(
        "src/app.ts:1:10: import { twice } from './lib';\nsrc/app.ts:2:21: export const four = twice(2);  (in four)\n",
      );
      // The workspace's own server ran (contained): nothing was left out.
      expect(leftInBoxes(cache())).toEqual(expect.arrayContaining(['ran-tsls', 'ran-yarn-tsserver']));
      expect(leftInBoxes(cache()).filter((f) => !f.startsWith('ran-'))).toEqual([]);
      expect(leftInBoxes(cache())).not.toContain('ran-node-options');
      expect(escaped({ ...targets.targets, project: dir })).toEqual([]);
      expect(targets.reached).toEqual([]);
    });

    test('the servers --for line says it runs as configured, in the box', async () => {
      const r = await lspq.json<{ servers: { id: string; runs: string; path: string }[] }>(
        ['servers', '--for', 'src/app.ts'],
        { cwd: dir, env: env() },
      );
      const tsls = r.servers.find((s) => s.id === 'typescript-language-server');
      expect(tsls?.runs).toBe('contained');
      expect(tsls?.path).toBe(join(dir, 'node_modules/.bin/typescript-language-server'));
    });
  });

  test('Python: an empty PYTHONPATH entry never imports the workspace’s sitecustomize.py; the .venv’s packages resolve', async () => {
    const dir = join(base, 'py');
    const t = { ...targets.targets, project: dir };
    write(join(dir, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
    write(join(dir, 'app.py'), 'from lspq_probe import moves\n\nx = moves\n');
    write(
      join(dir, 'sitecustomize.py'),
      `import subprocess\nsubprocess.run(['/bin/sh', '-c', ${JSON.stringify(shPayload(t, 'sitecustomize'))}])\n`,
    );
    // A real environment of the project's, with a package in it only.
    Bun.spawnSync(['python3', '-m', 'venv', '--without-pip', join(dir, '.venv')], { env: { PATH: toolsPath() } });
    const site = Bun.spawnSync([
      join(dir, '.venv', 'bin', 'python'),
      '-c',
      'import site; print(site.getsitepackages()[0])',
    ])
      .stdout.toString()
      .trim();
    write(join(site, 'lspq_probe.py'), 'moves = 1\n');
    const r = await lspq.run(['def', 'app.py:3:moves', '--server', 'pyright'], {
      cwd: dir,
      env: { ...env(), PYTHONPATH: ':' },
    });
    expect([r.stdout, r.exit]).toEqual([`${site}/lspq_probe.py:1:1: moves = 1\n`.replace(`${dir}/`, ''), 0]);
    expect(leftInBoxes(cache())).not.toContain('ran-sitecustomize');
    expect(escaped(t)).toEqual([]);
  });

  test('C: clangd’s index cannot be written through a .cache link out of the workspace', async () => {
    const dir = join(base, 'c');
    const outside = join(base, 'outside-cache');
    mkdirSync(outside, { recursive: true });
    write(join(dir, 'main.c'), 'int twice(int n) { return n * 2; }\nint main(void) { return twice(2); }\n');
    write(
      join(dir, 'compile_commands.json'),
      JSON.stringify([{ directory: dir, file: 'main.c', arguments: ['cc', '-c', 'main.c'] }]),
    );
    symlinkSync(outside, join(dir, '.cache'));
    const r = await lspq.run(['def', 'main.c:2:twice'], { cwd: dir, env: env() });
    expect([r.stdout, r.exit]).toEqual(['main.c:1:5: int twice(int n) { return n * 2; }\n', 0]);
    // Its background index would be written by now (a file this small takes milliseconds).
    await Bun.sleep(1_500);
    expect(readdirSync(outside)).toEqual([]);
  });

  test('a dry-run "Move to a new file" through a dangling link writes nothing outside, and the link stays', async () => {
    await moveThroughLink(lspq, base, env());
  });

  describe('git: a filter, a lazy fetch and a misread flag can neither write nor reach anything', () => {
    test('a submodule’s clean filter run by lspq git describe --dirty', async () => {
      const dir = join(base, 'git-sub');
      const sub = join(base, 'git-sub-origin');
      for (const d of [dir, sub]) {
        mkdirSync(d, { recursive: true });
        git(d, 'init', '-q', '-b', 'main');
      }
      write(join(sub, 'a.txt'), 'one\n');
      write(join(sub, '.gitattributes'), '*.txt filter=evil\n');
      git(sub, 'add', '-A');
      git(sub, 'commit', '-qm', 'sub');
      write(join(dir, 'README'), 'top\n');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'top');
      git(dir, '-c', 'protocol.file.allow=always', 'submodule', '-q', 'add', sub, 'sub');
      git(dir, 'commit', '-qm', 'with sub');
      const payload = join(dir, '.git', 'evil-filter');
      write(payload, shPayload({ ...targets.targets, project: dir }, 'git-filter', '/bin/cat'), 0o755);
      git(join(dir, 'sub'), 'config', 'filter.evil.clean', payload);
      write(join(dir, 'sub', 'a.txt'), 'two\n');
      const r = await lspq.run(['git', 'describe', '--dirty', '--always'], { cwd: dir, env: env() });
      expect(r.exit).toBe(0);
      expect(escaped({ ...targets.targets, project: dir })).toEqual([]);
      expect(readFileSync(join(dir, 'sub', 'a.txt'), 'utf8')).toBe('two\n');
      expect(leftInBoxes(cache())).toContain('ran-git-filter');
      expect(targets.reached).toEqual([]);
      expect(leftInBoxes(cache()).filter((f) => f.startsWith('secret-'))).toEqual([]);
    });

    test('a partial clone’s lazy fetch by remote.origin.uploadpack, from lspq git show', async () => {
      const origin = join(base, 'partial-origin');
      const dir = join(base, 'partial');
      mkdirSync(origin, { recursive: true });
      git(origin, 'init', '-q', '-b', 'main');
      write(join(origin, 'f.txt'), 'old\n');
      git(origin, 'add', '-A');
      git(origin, 'commit', '-qm', 'one');
      write(join(origin, 'f.txt'), 'new\n');
      git(origin, 'commit', '-qam', 'two');
      git(origin, 'config', 'uploadpack.allowfilter', 'true');
      git(base, 'clone', '-q', '--no-checkout', '--filter=blob:none', `file://${origin}`, dir);
      const payload = join(dir, '.git', 'evil-uploadpack');
      write(payload, shPayload({ ...targets.targets, project: dir }, 'uploadpack', 'git-upload-pack'), 0o755);
      git(dir, 'config', 'remote.origin.uploadpack', payload);
      const r = await lspq.run(['git', 'show', 'HEAD~1:f.txt'], { cwd: dir, env: env() });
      // The blob is not here and nothing may fetch it: git says so, nothing ran outside.
      expect(r.exit).not.toBe(0);
      expect(leftInBoxes(cache())).toContain('ran-uploadpack');
      expect(escaped({ ...targets.targets, project: dir })).toEqual([]);
      expect(targets.reached).toEqual([]);
    });

    test('a relative PATH entry never runs the workspace’s ./git', async () => {
      const dir = join(base, 'path-git');
      mkdirSync(dir, { recursive: true });
      git(dir, 'init', '-q', '-b', 'main');
      write(join(dir, 'git'), shPayload({ ...targets.targets, project: dir }, 'dot-git'), 0o755);
      const r = await lspq.run(['git', 'status', '--json'], {
        cwd: dir,
        env: { ...env(), PATH: `.:${lspq.env().PATH}` },
      });
      expect(r.exit).toBe(0);
      expect(JSON.parse(r.stdout).branch).toBe('main');
      expect(leftInBoxes(cache())).not.toContain('ran-dot-git');
      expect(escaped({ ...targets.targets, project: dir })).toEqual([]);
    });
  });

  test('the README’s first query in a fresh clone: the same answer untrusted as trusted', async () => {
    const clone = join(base, 'clone');
    git(base, 'clone', '-q', '--depth', '1', `file://${REPO}`, clone);
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
    const args = ['def', '--symbol', 'LspqError'];
    const mine = await trusted.run(args, { cwd: clone });
    const theirs = await lspq.run(args, { cwd: clone, env: env() });
    expect(theirs.stdout).toBe(mine.stdout);
    expect(theirs.stdout).toMatch(/^src\/common\/errors\.ts:\d+:14: export class LspqError extends Error \{\n$/);
    expect(theirs.exit).toBe(0);
    expect(theirs.stderr).toBe('');
  });
});

/** What each server answers in a generated hostile workspace (test/helpers/hostile-workspace.ts). */
const DEFS = [ANSWERS.ts, ANSWERS.py, ANSWERS.pylsp, ANSWERS.basedpyright, ANSWERS.go, ANSWERS.rust, ANSWERS.c];

describe.each(kinds)('generated hostile workspaces in the %s box', (kind) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `lspq-contained-ws-${kind}-`)));
  const lspq = new Lspq({ trusting: false, box: kind });
  afterAll(async () => {
    expect(await lspq.stop()).toEqual([]);
    rmSync(base, { recursive: true, force: true });
  });

  describe.each<Layout>(['archive', 'odd-names'])('%s', (layout) => {
    const h = hostileWorkspace(base, layout);
    test('every server answers exactly with nothing left out; what the workspace planted ran in the box, and no mark got out', async () => {
      for (const a of DEFS) {
        const r = await lspq.run(a.def, { cwd: h.project });
        expect([a.def.join(' '), r.stdout, r.exit]).toEqual([a.def.join(' '), a.out, 0]);
        // Only what the workspace says of itself (its index) waits for trust: none of its code is left out.
        const leftOut = r.stderr.split('\n').filter((l) => l.includes('left out'));
        expect(
          leftOut.filter(
            (l) => !/^lspq: warning: left out (an index that came with the workspace \([^)]*\)(, )?)+:/.test(l),
          ),
        ).toEqual([]);
      }
      const refs = await lspq.run(ANSWERS.tsRefs.refs, { cwd: h.project });
      expect([refs.stdout, refs.exit]).toEqual([ANSWERS.tsRefs.out, 0]);
      expect(marksIn(h)).toEqual([]);
      // The workspace's own programs ran: its .lsp.json's servers (the nearest folder's), contained.
      expect(leftInBoxes(lspq.env().XDG_CACHE_HOME ?? '').filter((f) => f.startsWith('ran-lsp-json-'))).not.toEqual([]);
    });
  });
});

test('with no box (LSPQ_BOX=off) the allowlists hold, and the left-out line says why', async () => {
  const lspq = new Lspq({ trusting: false, box: 'off' });
  const r = await lspq.run(['servers'], { cwd: REPO });
  expect(r.stdout).toContain(
    'untrusted workspaces: not contained: LSPQ_BOX=off: their servers run in restricted modes',
  );
  expect(await lspq.stop()).toEqual([]);
});

test('with no box, a dry-run "Move to a new file" through a dangling link leaves nothing outside either', async () => {
  const lspq = new Lspq({ trusting: false, box: 'off' });
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-contained-off-')));
  try {
    await moveThroughLink(lspq, base, {});
  } finally {
    expect(await lspq.stop()).toEqual([]);
    rmSync(base, { recursive: true, force: true });
  }
});
