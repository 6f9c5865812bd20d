/**
 * The real projects the benchmarks run on, taken from the registries this
 * machine reaches and copied into bench/.work (servers write caches there):
 * lspq's own TypeScript, cobra (Go module proxy), requests (PyPI sdist) and
 * zlib (the C sources inside the libz-sys crate).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(import.meta.dir, '..');
export const WORK = join(REPO, 'bench', '.work');

export interface Query {
  file: string;
  /** A line matching this, and NAME on it: robust to where it sits. */
  line: RegExp;
  name: string;
}

export interface Project {
  lang: string;
  server: string;
  root: string;
  target: Query;
  symbolsFile: string;
}

function run(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(cmd, { cwd, env: { ...process.env, ...env } as Record<string, string>, stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

function writable(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    chmodSync(p, e.isDirectory() ? 0o755 : 0o644);
    if (e.isDirectory()) writable(p);
  }
}

function copyOnce(from: string, to: string): void {
  if (existsSync(to)) return;
  cpSync(from, to, { recursive: true });
  writable(to);
}

function goProject(): Project {
  const root = join(WORK, 'cobra');
  if (!existsSync(root)) {
    const info = JSON.parse(
      run(['go', 'mod', 'download', '-json', 'github.com/spf13/cobra@v1.8.1'], WORK, { GOFLAGS: '-mod=mod' }),
    ) as { Dir: string };
    copyOnce(info.Dir, root);
    run(['go', 'mod', 'download'], root, { GOFLAGS: '-mod=mod' });
  }
  return {
    lang: 'Go (cobra)',
    server: 'gopls',
    root,
    target: { file: 'command.go', line: /_, err := c\.ExecuteC\(\)/, name: 'ExecuteC' },
    symbolsFile: 'command.go',
  };
}

function pythonProject(): Project {
  const root = join(WORK, 'requests');
  if (!existsSync(root)) {
    const dl = join(WORK, 'dl');
    mkdirSync(dl, { recursive: true });
    run(['pip', 'download', '--no-binary', ':all:', '--no-deps', 'requests==2.32.3', '-d', dl, '-q'], WORK);
    run(['tar', 'xzf', join(dl, 'requests-2.32.3.tar.gz'), '-C', WORK], WORK);
    run(['mv', join(WORK, 'requests-2.32.3'), root], WORK);
  }
  return {
    lang: 'Python (requests)',
    server: 'pyright',
    root,
    target: { file: 'src/requests/api.py', line: /return session\.request\(method=method/, name: 'request' },
    symbolsFile: 'src/requests/sessions.py',
  };
}

function cProject(): Project {
  const root = join(WORK, 'zlib');
  if (!existsSync(root)) {
    const crate = join(WORK, 'zcrate');
    mkdirSync(join(crate, 'src'), { recursive: true });
    writeFileSync(
      join(crate, 'Cargo.toml'),
      '[package]\nname = "zc"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\nlibz-sys = { version = "=1.1.20", default-features = false, features = ["static"] }\n',
    );
    writeFileSync(join(crate, 'src', 'main.rs'), 'fn main() {}\n');
    run(['cargo', 'fetch', '-q'], crate);
    const registry = join(process.env.HOME ?? '/root', '.cargo', 'registry', 'src');
    const index = readdirSync(registry)
      .map((d) => join(registry, d, 'libz-sys-1.1.20', 'src', 'zlib'))
      .find(existsSync);
    if (!index) throw new Error('libz-sys sources not found after cargo fetch');
    copyOnce(index, root);
  }
  const sources = readdirSync(root).filter((f) => f.endsWith('.c') && statSync(join(root, f)).isFile());
  writeFileSync(
    join(root, 'compile_commands.json'),
    JSON.stringify(sources.map((file) => ({ directory: root, file, arguments: ['cc', '-c', '-I.', file] }))),
  );
  return {
    lang: 'C (zlib)',
    server: 'clangd',
    root,
    target: { file: 'deflate.c', line: /return deflateInit2_\(strm, level, Z_DEFLATED/, name: 'deflateInit2_' },
    symbolsFile: 'deflate.c',
  };
}

function typescriptProject(): Project {
  return {
    lang: 'TypeScript (lspq)',
    server: 'typescript',
    root: REPO,
    target: { file: 'src/commands/locations/handler.ts', line: /= await openTarget\(/, name: 'openTarget' },
    symbolsFile: 'src/lsp/client.ts',
  };
}

/**
 * immer's TypeScript sources, from its npm package (npm pack: the registry's
 * tarball holds src/), with a tsconfig of its own: a small library whose
 * files all import one another, for diag --patch (bench/patch.ts).
 */
export function immer(): string {
  const root = join(WORK, 'immer');
  if (!existsSync(root)) {
    const dl = join(WORK, 'dl');
    mkdirSync(dl, { recursive: true });
    run(['npm', 'pack', 'immer@11.2.10', '--pack-destination', dl, '--silent'], WORK);
    run(['tar', 'xzf', join(dl, 'immer-11.2.10.tgz'), '-C', dl], WORK);
    mkdirSync(root, { recursive: true });
    copyOnce(join(dl, 'package', 'src'), join(root, 'src'));
    writeFileSync(
      join(root, 'tsconfig.json'),
      '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2020", "lib": ["es2020"], "module": "esnext", "moduleResolution": "bundler", "skipLibCheck": true }, "include": ["src"] }\n',
    );
    // Its build defines process.env.NODE_ENV; the sources alone need it declared.
    writeFileSync(join(root, 'src', 'types', 'node.d.ts'), 'declare const process: { env: { NODE_ENV?: string } }\n');
    writeFileSync(join(root, 'package.json'), '{ "name": "immer-bench", "private": true }\n');
  }
  return root;
}

export function projects(): Project[] {
  mkdirSync(WORK, { recursive: true });
  return [typescriptProject(), goProject(), pythonProject(), cProject()];
}

/** FILE:LINE:COL of the query, 1-based code points. */
export function position(project: Project, q: Query): { path: string; line: number; column: number } {
  const path = join(project.root, q.file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const index = lines.findIndex((l) => q.line.test(l));
  if (index < 0) throw new Error(`${q.file}: no line matches ${q.line}`);
  const column = Array.from(lines[index]!.slice(0, lines[index]!.indexOf(q.name))).length + 1;
  return { path, line: index + 1, column };
}
