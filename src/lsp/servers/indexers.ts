/**
 * The SCIP indexers lspq index runs, as data beside the servers: the
 * command, how it is told the project and the output, its install hint,
 * and which projects it takes. Found as servers are (locate.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface Indexer {
  name: string;
  command: string;
  args: (root: string, out: string) => string[];
  install: string;
  /** Whether the project at `root` is one it indexes. */
  wants: (root: string) => boolean;
  /** A project root of its language is here (its marker files). */
  marks: (dir: string) => boolean;
  /** Projects of its language inside another are indexed too, each on its own (Go's nested modules: GOROOT's cmd in std). */
  nested?: boolean;
  /**
   * In a workspace not trusted: it runs in the environment the server of
   * this id gets there (untrusted.ts), or, where nothing lspq can set keeps
   * the workspace's code from running, not at all (`refused`, saying why).
   */
  untrusted?: { as: string } | { refused: string };
  /**
   * What its references leave out that the language's server counts, as
   * measured by the differential harness (bench/differential.ts): a
   * workspace-wide answer from its index is asked of the live server, and
   * with --index-only it says what it may lack (exit 3).
   */
  partialReferences?: string;
}

const has = (root: string, ...names: string[]) => names.some((n) => existsSync(join(root, n)));
const hasExtension = (root: string, ext: string) => {
  try {
    return readdirSync(root).some((f) => f.endsWith(ext));
  } catch {
    return false;
  }
};

export const INDEXERS: Indexer[] = [
  {
    name: 'scip-typescript',
    command: 'scip-typescript',
    args: (root, out) => [
      'index',
      '--cwd',
      root,
      '--output',
      out,
      '--no-progress-bar',
      ...(has(root, 'tsconfig.json') ? [] : ['--infer-tsconfig']),
    ],
    install: 'npm install -g @sourcegraph/scip-typescript',
    wants: (root) => has(root, 'tsconfig.json', 'jsconfig.json', 'package.json'),
    marks: (dir) => has(dir, 'tsconfig.json', 'jsconfig.json', 'package.json'),
  },
  {
    name: 'scip-python',
    command: 'scip-python',
    args: (root, out) => ['index', '--cwd', root, '--project-name', basename(root), '--output', out, '--quiet'],
    install: 'npm install -g @sourcegraph/scip-python',
    // On httpx 0.28.1, 5 of 12 seeded symbols' references differed from pyright's.
    partialReferences: 'import statements, __all__ entries and string annotations, which pyright counts as references',
    wants: (root) =>
      has(root, 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'pyrightconfig.json') ||
      hasExtension(root, '.py'),
    marks: (dir) => has(dir, 'pyproject.toml', 'setup.py', 'setup.cfg', 'pyrightconfig.json'),
  },
  {
    name: 'scip-go',
    command: 'scip-go',
    // Run in the module's folder: its packages (./...). A module nested inside is not among them: it gets a run of its own.
    args: (_root, out) => ['index', '--output', out, '--quiet'],
    install: 'go install github.com/scip-code/scip-go/cmd/scip-go@latest',
    wants: (root) => has(root, 'go.mod'),
    marks: (dir) => has(dir, 'go.mod'),
    nested: true,
    untrusted: { as: 'gopls' },
  },
  {
    name: 'rust-analyzer',
    command: 'rust-analyzer',
    args: (root, out) => ['scip', root, '--output', out],
    install: 'rustup component add rust-analyzer',
    wants: (root) => has(root, 'Cargo.toml'),
    marks: (dir) => has(dir, 'Cargo.toml'),
    // It loads the workspace as the server does: build scripts and proc macros run unless its config says not.
    // Tried with build scripts and proc macros off in its --config-path file: the crate's build.rs still ran.
    untrusted: { refused: "its scip command runs the crate's build scripts and proc macros whatever it is told" },
  },
];
