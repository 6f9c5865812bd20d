/**
 * The formats CI systems read and the hook and CI recipes of docs/diagnostics.md, run as
 * written: a Go project cloned from an "origin" whose main holds an old
 * error, with a change that adds an error and breaks an unchanged caller.
 * SARIF is validated against the SARIF 2.1.0 schema; the GitHub step's
 * command prints exact workflow commands; pre-commit (from PyPI) runs the
 * guide's local hook and this repository's .pre-commit-hooks.yaml; lefthook
 * runs the guide's lefthook.yml through a real git commit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { capture, git, Lspq, lspqOnPath, REPO, toolsPath } from '../helpers/lspq';

const lspq = new Lspq();
const base = mkdtempSync(join(tmpdir(), 'lspq-ci-'));
const bin = join(base, 'bin');
const origin = join(base, 'origin.git');
const work = join(base, 'work');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const GUIDE = readFileSync(join(REPO, 'docs', 'diagnostics.md'), 'utf8');
/** The fenced block of the guide that follows `after`. */
function recipe(after: string): string {
  const at = GUIDE.indexOf(after);
  expect(at).toBeGreaterThanOrEqual(0);
  return /```[a-z]*\n([\s\S]*?)```/.exec(GUIDE.slice(at))![1]!;
}

const FILES: Record<string, string> = {
  'go.mod': 'module example.com/ci\n\ngo 1.22\n',
  'lib.go': 'package ci\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n',
  'caller.go': 'package ci\n\nvar Twice = Scale(2)\n',
  'old.go': 'package ci\n\nvar Old int = "an old error"\n',
};
const CHANGED = 'package ci\n\nfunc Scale(x, by int) int {\n\treturn x * by\n}\n\nvar Fresh int = "a new error"\n';

/** The environment a hook or a CI step has: lspq, the servers and git on PATH, nothing of the user's. */
const env = () => lspq.env({ PATH: `${bin}:${toolsPath()}`, PRE_COMMIT_HOME: join(base, 'pre-commit-cache') });
const sh = (command: string, cwd = work) => capture(['sh', '-c', command], cwd, env());

beforeAll(() => {
  mkdirSync(bin);
  lspqOnPath(bin);
  const seed = join(base, 'seed');
  mkdirSync(seed);
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(seed, name), text);
  git(seed, 'init', '-q', '-b', 'main');
  git(seed, 'add', '.');
  git(seed, 'commit', '-qm', 'base with an old error');
  git(base, 'clone', '-q', '--bare', seed, origin);
  git(base, 'clone', '-q', origin, work);
  git(work, 'checkout', '-q', '-b', 'change');
  writeFileSync(join(work, 'lib.go'), CHANGED);
  git(work, 'commit', '-qam', 'a change that breaks a caller');
});

const NEW_ERROR =
  '::error file=lib.go,line=7,col=17,endLine=7,endColumn=30,title=compiler IncompatibleAssign::cannot use "a new error" (untyped string constant) as int value in variable declaration';
const BROKEN_CALLER =
  '::error file=caller.go,line=3,col=20,endLine=3,endColumn=20,title=compiler WrongArgCount::not enough arguments in call to Scale%0A\thave (number)%0A\twant (int, int)';

describe('the GitHub Actions step', () => {
  test('its command prints workflow commands for what the branch breaks, and fails', async () => {
    const step = recipe('A GitHub Actions step');
    const command = /run: (.+)\n/.exec(step)![1]!;
    expect(command).toBe('lspq diag --since origin/main --all --format github');
    const r = await sh(command);
    expect(r.stdout).toBe(`${BROKEN_CALLER}\n${NEW_ERROR}\n`);
    expect(r.stderr).toBe(
      'lspq: 2 errors new since origin/main in 4 files; 1 problem already at origin/main, not counted\n',
    );
    expect(r.exit).toBe(1);
  });
});

describe('SARIF', () => {
  test('valid SARIF 2.1.0, the new results marked new', async () => {
    const r = await sh('lspq diag --since origin/main --all --format sarif');
    expect(r.exit).toBe(1);
    const log = JSON.parse(r.stdout);
    const schemaPath = join(
      REPO,
      'node_modules',
      '@microsoft',
      'jest-sarif',
      'lib',
      'schemas',
      'sarif-2.1.0-rtm.5.json',
    );
    // The schema's patterns are not written for Unicode mode: compiled as plain regular expressions.
    const plain = Object.assign((pattern: string) => new RegExp(pattern), { code: 'new RegExp' });
    const validate = new AjvDraft04({ strict: false, validateFormats: false, code: { regExp: plain } }).compile(
      JSON.parse(readFileSync(schemaPath, 'utf8')),
    );
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('compiler');
    expect(run.tool.driver.rules).toEqual([{ id: 'IncompatibleAssign' }, { id: 'WrongArgCount' }]);
    expect(
      run.results.map(
        (x: {
          ruleId: string;
          level: string;
          baselineState: string;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
        }) => [
          x.ruleId,
          x.level,
          x.baselineState,
          x.locations[0]!.physicalLocation.artifactLocation.uri,
          x.locations[0]!.physicalLocation.region.startLine,
        ],
      ),
    ).toEqual([
      ['WrongArgCount', 'error', 'new', 'caller.go', 3],
      ['IncompatibleAssign', 'error', 'new', 'lib.go', 7],
    ]);
  });

  test('--format takes sarif or github; not with --json', async () => {
    expect((await sh('lspq diag --format xml')).stderr).toBe(
      "lspq: --format takes sarif or github, not 'xml' (--json for lspq's own JSON)\n",
    );
    expect((await sh('lspq diag --format sarif --json')).exit).toBe(2);
  });
});

describe('hooks', () => {
  /** A staged change that breaks the caller; `fix` stages one that does not. */
  const stageBreaking = () => {
    git(work, 'checkout', '-q', 'main');
    git(work, 'checkout', '-q', '-B', 'hooked');
    writeFileSync(join(work, 'lib.go'), CHANGED);
    git(work, 'add', 'lib.go');
  };
  const stageHarmless = () => {
    writeFileSync(join(work, 'lib.go'), `${FILES['lib.go']}\n// Scale doubles.\n`);
    git(work, 'add', 'lib.go');
  };

  test("pre-commit runs the guide's local hook: the breaking change fails, a harmless one passes", async () => {
    writeFileSync(join(work, '.pre-commit-config.yaml'), recipe('With the [pre-commit]'));
    stageBreaking();
    const failed = await sh('pre-commit run lspq-diag-new');
    expect(failed.exit).toBe(1);
    expect(failed.stdout).toContain('lib.go:7:17: error: cannot use "a new error"');
    expect(failed.stdout).toContain('caller.go:3:20: error: not enough arguments in call to Scale');
    expect(failed.stdout).not.toContain('old.go');
    stageHarmless();
    const passed = await sh('pre-commit run lspq-diag-new');
    expect(passed.stdout).toContain('Passed');
    expect(passed.exit).toBe(0);
    rmSync(join(work, '.pre-commit-config.yaml'));
  });

  test("pre-commit runs this repository's .pre-commit-hooks.yaml (try-repo)", async () => {
    stageBreaking();
    const failed = await sh(`pre-commit try-repo '${REPO}' lspq-diag-new`);
    expect(failed.exit).toBe(1);
    expect(failed.stdout).toContain('caller.go:3:20: error: not enough arguments in call to Scale');
    stageHarmless();
    expect((await sh(`pre-commit try-repo '${REPO}' lspq-diag-new`)).exit).toBe(0);
  });

  test("lefthook runs the guide's lefthook.yml in a real commit", async () => {
    writeFileSync(join(work, 'lefthook.yml'), recipe('With [lefthook]'));
    expect((await sh('lefthook install')).exit).toBe(0);
    stageBreaking();
    const refused = await sh("git -c user.name=t -c user.email=t@t commit -qm 'breaks a caller'");
    expect(refused.exit).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toContain(
      'caller.go:3:20: error: not enough arguments in call to Scale',
    );
    expect(git(work, 'log', '-1', '--format=%s')).toBe('base with an old error\n');
    stageHarmless();
    const committed = await sh("git -c user.name=t -c user.email=t@t commit -qm 'harmless'");
    expect(committed.exit).toBe(0);
    expect(git(work, 'log', '-1', '--format=%s')).toBe('harmless\n');
  });
});
