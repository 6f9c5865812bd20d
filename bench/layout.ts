/**
 * The shape of the code, measured from the sources: how many files
 * outside a command's own folder name it in code (as a quoted string), the import circles between files (type-only imports included: a
 * circle of types is still a knot to read), the files over the size
 * limit, and how long `lspq --version` takes against a compiled
 * hello-world, interleaved. Prints markdown; `bun bench/layout.ts`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { compileBench, fmt, interleaved, LSPQ, median, table, timeCommand } from './harness';
import { REPO } from './projects';

/** Files longer than this are listed, for a look: a long file that holds one idea is fine, a cut that splits one is not. */
const LONG_LINES = 450;

export function sourceFiles(dir = join(REPO, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    )
    .sort();
}

const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]|(?:import|require)\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The files of src/ each file imports (relative imports only), type-only imports and require() included. */
export function importGraph(files = sourceFiles()): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      const base = resolve(dirname(file), spec);
      const found = [base, `${base}.ts`, join(base, 'index.ts')].find((f) => known.has(f));
      if (found && found !== file) targets.add(found);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan's algorithm). */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

export const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

/** Code without its comments (a comment that names a command is documentation, not a dependency on it). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/**
 * The files outside `src/commands/NAME/` that name the command in code: as
 * a quoted string (a table's key written as a string, a comparison, a
 * message). `process: 'daemon'` names where a command runs, not the
 * daemon command.
 */
export function namingFiles(name: string, files = sourceFiles()): string[] {
  const own = join(REPO, 'src', 'commands', name);
  const named = new RegExp(`(['"\`])${name}\\1`);
  return files.filter((f) => {
    if (f.startsWith(`${own}/`)) return false;
    const text = code(readFileSync(f, 'utf8')).replace(/process: 'daemon'/g, '');
    return named.test(text);
  });
}

async function main(): Promise<void> {
  const files = sourceFiles();
  const { COMMANDS } = await import('../src/commands/list');
  const COMMAND_NAMES = Object.keys(COMMANDS);
  const rel = (f: string) => relative(REPO, f);
  console.log("#### Files outside a command's folder that name it\n");
  console.log(
    table(
      ['command', 'files', 'which'],
      COMMAND_NAMES.map((n) => {
        const f = namingFiles(n, files);
        return [n, f.length, f.map(rel).join(', ')];
      }),
    ),
  );
  const found = circles(importGraph(files));
  console.log(`\n#### Import circles: ${found.length}\n`);
  for (const c of found) console.log(`- ${c.map(rel).join(', ')}`);
  const big = files.map((f) => [rel(f), lineCount(f)] as const).filter(([, n]) => n > LONG_LINES);
  const total = files.reduce((n, f) => n + lineCount(f), 0);
  console.log(`\n#### ${files.length} files, ${total} lines; over ${LONG_LINES} lines: ${big.length}\n`);
  for (const [f, n] of big) console.log(`- ${f}: ${n}`);
  const hello = join(REPO, 'bench', '.work', 'layout-hello');
  writeFileSync(`${hello}.ts`, "console.log('hello');\n");
  await compileBench(`${hello}.ts`, hello);
  const [h, v] = await interleaved([
    async () => (await timeCommand([hello], REPO)).ms,
    async () => (await timeCommand([LSPQ, '--version'], REPO)).ms,
  ]);
  console.log(
    `\n#### Start-up (ms, medians, interleaved): hello-world ${fmt(median(h!))}, lspq --version ${fmt(median(v!))} (${(median(v!) / median(h!)).toFixed(2)}x)`,
  );
}

if (import.meta.main) await main();
