/**
 * Which files a change can break: the changed files and every file that
 * imports one of them, directly or through others (a type flows through
 * each importer to the next). Read from the files' own import lines, for
 * TypeScript/JavaScript, Python and Go; where a file's import cannot be
 * placed from its text (a paths alias, a package no node_modules holds)
 * it is taken as importing anything (an import by a computed name gives
 * the checker no type to follow, so it is no edge), and where the
 * change can reach files without an import (a script's globals, `declare
 * global`, a module augmentation, a build file) nothing is narrowed.
 * `read` gives each file's text (the tree a question holds, else the
 * disk's); node_modules is looked at to tell a package from a workspace's own.
 */
import { builtinModules } from 'node:module';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

export type Read = (path: string) => string | undefined;

type Language = 'typescript' | 'python' | 'go';

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.d.mts', '.d.cts', '.js', '.jsx', '.mjs', '.cjs'];

function languageOf(path: string): Language | undefined {
  if (/\.(?:[mc]?[jt]sx?)$/.test(path)) return 'typescript';
  if (/\.pyi?$/.test(path)) return 'python';
  if (path.endsWith('.go')) return 'go';
  return undefined;
}

/** What one file imports: the files it names, or anything (`open`: an import not told from the text). */
interface Imports {
  files: Set<string>;
  open: boolean;
}

/**
 * The files of `files` (absolute paths) that a change to `changed` (each
 * path with its texts before and after; null where absent) can give other
 * diagnostics: `changed` itself and its importers, transitively.
 * Undefined where the change can reach a file that imports none of them,
 * or a changed file is of a language not read here: check every file.
 */
export function filesReached(
  changes: ReadonlyMap<string, readonly (string | null)[]>,
  files: string[],
  read: Read,
  /** The workspace's root: a package linked from inside it is one of its files. */
  root: string,
): Set<string> | undefined {
  const changed = [...changes.keys()];
  if (changed.length === 0) return new Set();
  const languages = new Set(changed.map(languageOf));
  if (languages.has(undefined) || languages.size > 1) return undefined;
  const language = [...languages][0] as Language;
  const all = [...new Set([...files, ...changed])];
  const same = all.filter((f) => languageOf(f) === language);
  // A file of a kind not read here (go.mod, which gopls diagnoses too) is kept: what reaches it is not told.
  const others = files.filter((f) => languageOf(f) === undefined);
  const reached = reachedIn(language, changes, changed, same, read, root);
  return reached && new Set([...reached, ...others]);
}

function reachedIn(
  language: Language,
  changes: ReadonlyMap<string, readonly (string | null)[]>,
  changed: string[],
  same: string[],
  read: Read,
  root: string,
): Set<string> | undefined {
  if (language === 'typescript') {
    if ([...changes.values()].flat().some((t) => t !== null && reachesWithoutImport(t))) return undefined;
    const known = new Set(same);
    return closure(changed, same, (f) => tsImports(f, read(f), known, root));
  }
  if (language === 'python') {
    // Each module name's files, once: a file's imports are then looked up, not compared with every file.
    const byName = new Map<string, string[]>();
    for (const f of same) byName.set(pyModuleName(f), [...(byName.get(pyModuleName(f)) ?? []), f]);
    return closure(changed, same, (f) => pyImports(f, read(f), byName));
  }
  return goReached(changed, same, read);
}

/** Files reached from `changed` along reversed import edges; a file with open imports is reached once anything is. */
function closure(changed: string[], files: string[], importsOf: (path: string) => Imports): Set<string> {
  const importers = new Map<string, string[]>();
  const open: string[] = [];
  for (const f of files) {
    const imports = importsOf(f);
    if (imports.open) open.push(f);
    for (const to of imports.files) importers.set(to, [...(importers.get(to) ?? []), f]);
  }
  const reached = new Set<string>();
  const queue = [...changed, ...open];
  for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
    if (reached.has(f)) continue;
    reached.add(f);
    for (const by of importers.get(f) ?? []) if (!reached.has(by)) queue.push(by);
  }
  return reached;
}

/** A file whose declarations others see without importing it: a script (no import or export), `declare global`, an augmentation. */
function reachesWithoutImport(text: string): boolean {
  if (/^\s*declare\s+global\b/m.test(text) || /^\s*declare\s+module\s+['"]/m.test(text)) return true;
  return !/^\s*(?:import|export)\b/m.test(text);
}

const TS_SPECIFIERS = [
  /\bfrom\s*(['"])([^'"\n]+)\1/g,
  /\bimport\s*\(?\s*(['"])([^'"\n]+)\1/g,
  /\brequire\s*\(\s*(['"])([^'"\n]+)\1/g,
  /<reference\s+path\s*=\s*(['"])([^'"\n]+)\1/g,
];
const BUILTINS = new Set(builtinModules);

function tsImports(path: string, source: string | undefined, known: Set<string>, root: string): Imports {
  const out: Imports = { files: new Set(), open: false };
  if (source === undefined) return out;
  // Comments out (a doc comment's example imports the package by name); `//` only after a space or a line's start, not a URL's.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|\s)\/\/(?!\/\s*<reference).*$/gm, '$1');
  for (const pattern of TS_SPECIFIERS)
    for (const m of text.matchAll(pattern)) {
      const spec = m[2] ?? '';
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const found = resolveRelative(resolve(dirname(path), spec), known);
        if (found) out.files.add(found);
        // A folder with its own package.json, or a file not among the project's: its target is not told here.
        else if (!/\.(?:css|scss|less|svg|png|json|html)$/.test(spec)) out.open = true;
      } else if (!isExternal(spec, path, root)) out.open = true;
    }
  return out;
}

function resolveRelative(base: string, known: Set<string>): string | undefined {
  const stem = base.replace(/\.(?:[mc]?js|jsx)$/, '');
  const candidates = [
    base,
    ...TS_EXTENSIONS.map((e) => stem + e),
    ...TS_EXTENSIONS.map((e) => base + e),
    ...TS_EXTENSIONS.map((e) => join(base, `index${e}`)),
  ];
  return candidates.find((c) => known.has(c));
}

/** A package installed in some node_modules above the file, or Node's own; not one of the workspace's linked in (its real path is its folder). */
function isExternal(spec: string, from: string, root: string): boolean {
  if (spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0] ?? '')) return true;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? '');
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const at = join(dir, 'node_modules', name);
    if (existsSync(at)) {
      const real = realpathSync(at);
      return real.includes(`${sep}node_modules${sep}`) || !(real + sep).startsWith(root + sep);
    }
    if (dirname(dir) === dir) return false;
  }
}

/** The names a Python file's imports spell (each part of a dotted module, each name taken), and the packages its relative imports start from. */
function pyImports(path: string, text: string | undefined, byName: ReadonlyMap<string, string[]>): Imports {
  const out: Imports = { files: new Set(), open: false };
  if (text === undefined) return out;
  const names = new Set<string>();
  const add = (dotted: string) => {
    for (const part of dotted.split(/[^\w]+/)) if (part) names.add(part);
  };
  // Logical lines: a parenthesised name list spans lines.
  const joined = text.replace(/\(([^()]*)\)/g, (m) => m.replace(/\n/g, ' '));
  for (const m of joined.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm)) add((m[1] ?? '').replace(/\bas\s+\w+/g, ''));
  for (const m of joined.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+([^\n#;]+)/gm)) {
    add(m[2] ?? '');
    add((m[3] ?? '').replace(/\bas\s+\w+/g, ''));
    // `from . import x` and `from .. import *` name the package they start from.
    if (m[1]) {
      let dir = dirname(path);
      for (let i = 1; i < m[1].length; i++) dir = dirname(dir);
      names.add(basename(dir));
    }
  }
  for (const name of names) for (const f of byName.get(name) ?? []) if (f !== path) out.files.add(f);
  return out;
}

/** The last part of a file's module name: its stem, or its package's for an `__init__`. */
function pyModuleName(path: string): string {
  const stem = basename(path).replace(/\.pyi?$/, '');
  return stem === '__init__' ? basename(dirname(path)) : stem;
}

/** Go: every file of each package reached, a package reaching those that import its path (its folder under its module's path). */
function goReached(changed: string[], files: string[], read: Read): Set<string> | undefined {
  const modules = new Map<string, { root: string; path: string } | undefined>();
  const moduleOf = (dir: string): { root: string; path: string } | undefined => {
    if (modules.has(dir)) return modules.get(dir);
    const text = existsSync(join(dir, 'go.mod')) ? read(join(dir, 'go.mod')) : undefined;
    const declared = text?.match(/^module\s+(\S+)/m)?.[1]?.replace(/^"|"$/g, '');
    const found = declared ? { root: dir, path: declared } : dirname(dir) === dir ? undefined : moduleOf(dirname(dir));
    modules.set(dir, found);
    return found;
  };
  const importPath = (dir: string): string | undefined => {
    const mod = moduleOf(dir);
    if (!mod) return undefined;
    const rel = relative(mod.root, dir).split(sep).join('/');
    return rel ? `${mod.path}/${rel}` : mod.path;
  };
  const byDir = new Map<string, string[]>();
  for (const f of files) byDir.set(dirname(f), [...(byDir.get(dirname(f)) ?? []), f]);
  const importsOf = new Map<string, Set<string>>();
  for (const [dir, inDir] of byDir) {
    const paths = new Set<string>();
    for (const f of inDir) for (const p of goImports(read(f))) paths.add(p);
    importsOf.set(dir, paths);
  }
  const reached = new Set<string>();
  const queue = changed.map((f) => dirname(f));
  for (const dir of queue) if (importPath(dir) === undefined) return undefined;
  for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
    if (reached.has(dir)) continue;
    reached.add(dir);
    const path = importPath(dir);
    for (const [other, paths] of importsOf) if (!reached.has(other) && path && paths.has(path)) queue.push(other);
  }
  return new Set([...changed, ...files.filter((f) => reached.has(dirname(f)))]);
}

function goImports(text: string | undefined): string[] {
  if (text === undefined) return [];
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm)) out.push(m[1] ?? '');
  for (const block of text.matchAll(/^import\s*\(([^)]*)\)/gm))
    for (const m of (block[1] ?? '').matchAll(/"([^"]+)"/g)) out.push(m[1] ?? '');
  return out;
}
