/**
 * What lspq knows of the languages themselves, apart from any server: file
 * extensions to LSP language ids several servers share, the words that are
 * never a name, and how code outside a file names what is in it.
 */

export const JS_TS: Record<string, string> = {
  '.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascriptreact',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
};

/** Words of code that are never what a question is about. */
export const KEYWORDS = new Set(
  (
    'if else for while do return func function def class struct interface type const let var import from package ' +
    'export default new this self true false null nil None True False in of is not and or static public private ' +
    'protected void int char double float long short unsigned bool string async await try catch finally throw ' +
    'raise with as pass break continue switch case go defer range map chan select fn pub use mod impl mut match'
  ).split(' '),
);

/** How code outside a file qualifies the names in it: Go's package name (instead of the package path a server gives), Python's module path. */
export interface FileQualifier {
  parts: string[];
  replacesContainer: boolean;
}

/** Go's package clause, or Python's module path under the root: how code outside the file names what is in it. */
export function fileQualifier(path: string, root: string, text: (path: string) => string): FileQualifier | undefined {
  if (path.endsWith('.go')) {
    const pkg = /^package\s+(\w+)/m.exec(text(path))?.[1];
    return pkg ? { parts: [pkg], replacesContainer: true } : undefined;
  }
  if ((path.endsWith('.py') || path.endsWith('.pyi')) && path.startsWith(`${root}/`)) {
    const parts = path
      .slice(root.length + 1)
      .replace(/\.pyi?$/, '')
      .split('/');
    return { parts: parts.at(-1) === '__init__' ? parts.slice(0, -1) : parts, replacesContainer: false };
  }
  return undefined;
}

/**
 * Python's stubs: `m.pyi` declares for type checkers the module `m.py`
 * beside it (a package's `__init__.pyi`, its `__init__.py`). The other file
 * of the pair a path would belong to, whether it exists or not.
 */
export function stubPair(path: string): string | undefined {
  if (path.endsWith('.pyi')) return path.slice(0, -1);
  if (path.endsWith('.py')) return `${path}i`;
  return undefined;
}

export const isStub = (path: string): boolean => path.endsWith('.pyi');
