/**
 * A made-up project of one function, `helper`, declared in one file and
 * called twice from each of many others: the ground for bulk changes on
 * disk (sed over every file, git checkout, stash, a generator) asked about
 * at once. One per language; every file is committed, so `git checkout --
 * .` puts it back.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, scratchDir } from './lspq';

export interface BulkProject {
  dir: string;
  /** The declaration's file and line: a target is `${decl}:${name}`. */
  decl: string;
  /** Every file that names the function (for sed), relative to dir. */
  files: string[];
  /** A use file: diag of it after the declaration alone is renamed. */
  use: string;
  /** Writes the k-th extra file calling `name` (a generator's output), returns its path; `wire` also makes the project include it. */
  extra: (k: number, name: string) => string;
  /** The name as the language spells it. */
  name: (base: 'helper' | 'twice' | 'thrice') => string;
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** `n` use files in a fresh scratch folder inside the repository (so its TypeScript 7 is found). */
export function bulkProject(lang: 'ts' | 'py' | 'go' | 'rs' | 'c', n: number): BulkProject {
  const dir = scratchDir(`bulk-${lang}`);
  const files: Record<string, string> = {};
  let p: Omit<BulkProject, 'dir' | 'files'>;
  const uses = Array.from({ length: n }, (_, i) => i);
  if (lang === 'ts') {
    files['package.json'] = '{"name":"bulk","type":"module"}\n';
    files['tsconfig.json'] =
      '{"compilerOptions":{"strict":true,"module":"nodenext","target":"es2022","noEmit":true},"include":["src"]}\n';
    files['src/lib.ts'] = 'export function helper(n: number): number {\n  return n * 2;\n}\n';
    const use = (i: number, name: string) =>
      `import { ${name} } from '../lib.js';\nexport const a${i} = ${name}(${i});\nexport const b${i} = ${name}(a${i});\n`;
    for (const i of uses) files[`src/use/u${i}.ts`] = use(i, 'helper');
    p = {
      decl: 'src/lib.ts:1',
      use: 'src/use/u0.ts',
      name: (b) => b,
      extra: (k, name) => {
        write(dir, { [`src/gen/g${k}.ts`]: use(1000 + k, name) });
        return `src/gen/g${k}.ts`;
      },
    };
  } else if (lang === 'py') {
    files['pyproject.toml'] = '[project]\nname = "bulk"\nversion = "0"\n';
    files['pkg/__init__.py'] = '';
    files['pkg/use/__init__.py'] = '';
    files['pkg/lib.py'] = 'def helper(n: int) -> int:\n    return n * 2\n';
    const use = (i: number, name: string) =>
      `from pkg.lib import ${name}\n\na${i} = ${name}(${i})\nb${i} = ${name}(a${i})\n`;
    for (const i of uses) files[`pkg/use/u${i}.py`] = use(i, 'helper');
    p = {
      decl: 'pkg/lib.py:1',
      use: 'pkg/use/u0.py',
      name: (b) => b,
      extra: (k, name) => {
        write(dir, { [`pkg/use/g${k}.py`]: use(1000 + k, name) });
        return `pkg/use/g${k}.py`;
      },
    };
  } else if (lang === 'go') {
    files['go.mod'] = 'module bulk\n\ngo 1.22\n';
    files['lib.go'] = 'package bulk\n\nfunc Helper(n int) int {\n\treturn n * 2\n}\n';
    const use = (i: number, name: string) =>
      `package use\n\nimport "bulk"\n\nvar A${i} = bulk.${name}(${i})\nvar B${i} = bulk.${name}(A${i})\n`;
    for (const i of uses) files[`use/u${i}.go`] = use(i, 'Helper');
    p = {
      decl: 'lib.go:3',
      use: 'use/u0.go',
      name: cap,
      extra: (k, name) => {
        write(dir, { [`use/g${k}.go`]: use(1000 + k, name) });
        return `use/g${k}.go`;
      },
    };
  } else if (lang === 'rs') {
    files['Cargo.toml'] = '[package]\nname = "bulk"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';
    files['src/lib.rs'] = 'pub fn helper(n: i64) -> i64 {\n    n * 2\n}\npub mod uses;\npub mod gen;\n';
    files['src/gen.rs'] = '';
    const use = (i: number, name: string) =>
      `use crate::${name};\npub fn a${i}() -> i64 {\n    ${name}(${name}(${i}))\n}\n`;
    for (const i of uses) files[`src/uses/u${i}.rs`] = use(i, 'helper');
    files['src/uses/mod.rs'] = uses.map((i) => `pub mod u${i};\n`).join('');
    p = {
      decl: 'src/lib.rs:1',
      use: 'src/uses/u0.rs',
      name: (b) => b,
      // A module is part of the crate once a `mod` names it: the generator writes both.
      extra: (k, name) => {
        const mods = Array.from({ length: k + 1 }, (_, j) => `pub mod g${j};\n`).join('');
        write(dir, { [`src/gen/g${k}.rs`]: use(1000 + k, name), 'src/gen.rs': mods });
        return `src/gen/g${k}.rs`;
      },
    };
  } else {
    files['lib.h'] = 'int helper(int n);\n';
    files['lib.c'] = '#include "lib.h"\nint helper(int n) { return n * 2; }\n';
    const use = (i: number, name: string) => `#include "lib.h"\nint a${i}(void) { return ${name}(${name}(${i})); }\n`;
    for (const i of uses) files[`u${i}.c`] = use(i, 'helper');
    const entry = (file: string) => ({ directory: dir, file, arguments: ['cc', '-std=c11', '-c', file] });
    const db = ['lib.c', ...uses.map((i) => `u${i}.c`)].map(entry);
    // The generator's files are in the compilation database from the start, as a build system's glob would put them.
    for (let k = 0; k < 50; k++) db.push(entry(`gen/g${k}.c`));
    files['compile_commands.json'] = `${JSON.stringify(db, null, 1)}\n`;
    p = {
      decl: 'lib.h:1',
      use: 'u0.c',
      name: (b) => b,
      extra: (k, name) => {
        write(dir, { [`gen/g${k}.c`]: use(1000 + k, name).replace('"lib.h"', '"../lib.h"') });
        return `gen/g${k}.c`;
      },
    };
  }
  write(dir, files);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'bulk');
  const named = Object.keys(files).filter((f) => files[f]!.includes(p.name('helper')));
  return { dir, files: named, ...p };
}
