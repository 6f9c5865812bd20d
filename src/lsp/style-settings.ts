/**
 * The settings that tell a server which indentation its edits use, for
 * servers that keep their own format settings instead of reading the
 * request's FormattingOptions: tsserver computes a code action's or a
 * rename's text with the format options it was last configured with (four
 * spaces unless told), so a tab-indented import block comes back
 * re-indented. Pure.
 */
import type { FormattingOptions } from 'vscode-languageserver-protocol';
import { isRecord as isAnyRecord } from '../common/records';

/**
 * - tsserver: typescript-language-server asks the section `formattingOptions`
 *   for the file (scopeUri) and merges `typescript.format`/`javascript.format`;
 * - typescript-native: TypeScript 7 reads `format` under `js/ts`,
 *   `typescript` and `javascript`, pulled again after didChangeConfiguration.
 */
export type StyleSettings = 'tsserver' | 'typescript-native';

/** The settings sections that carry `options` to a server of the kind. */
export function styleSections(kind: StyleSettings, options: FormattingOptions): Record<string, unknown> {
  const format = {
    tabSize: options.tabSize,
    indentSize: options.tabSize,
    convertTabsToSpaces: options.insertSpaces,
  };
  const languages = { typescript: { format }, javascript: { format } };
  if (kind === 'tsserver')
    return { ...languages, formattingOptions: { tabSize: options.tabSize, insertSpaces: options.insertSpaces } };
  return { ...languages, 'js/ts': { format } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `over` laid on `base`, objects merged key by key (the server's own settings keep what the style does not say). */
export function mergeSettings(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = isRecord(under) && isRecord(value) ? mergeSettings(under, value) : value;
  }
  return out;
}

export const sameStyle = (a: FormattingOptions | undefined, b: FormattingOptions): boolean =>
  a !== undefined && a.tabSize === b.tabSize && a.insertSpaces === b.insertSpaces;

/** One section of a server's settings (`python.analysis`), as workspace/configuration asks for it; null where none is. */
/**
 * Settings that name the workspace (ESLint's `workspaceFolder`): the
 * values `<root-uri>` and `<root-name>` given as this root's, and
 * `<root-has:A|B>` as whether the root holds one of those files (ESLint's
 * `useFlatConfig`: a legacy .eslintrc is read only when it is false).
 * Pure but for `exists`.
 */
export function withRoot(
  settings: Record<string, unknown>,
  root: string,
  exists: (path: string) => boolean,
): Record<string, unknown> {
  const uri = `file://${root.split('/').map(encodeURIComponent).join('/')}`;
  const name = root.slice(root.lastIndexOf('/') + 1) || '/';
  const walk = (v: unknown): unknown => {
    if (v === '<root-uri>') return uri;
    if (v === '<root-name>') return name;
    if (typeof v === 'string' && v.startsWith('<root-has:') && v.endsWith('>'))
      return v
        .slice('<root-has:'.length, -1)
        .split('|')
        .some((file) => exists(`${root}/${file}`));
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return Object.fromEntries(Object.entries(settings).map(([k, x]) => [k, walk(x)]));
}

export function settingAt(settings: Record<string, unknown>, section: string | undefined): unknown {
  if (!section) return settings;
  if (section in settings) return settings[section];
  let node: unknown = settings;
  for (const part of section.split('.')) {
    if (!isAnyRecord(node) || !(part in node)) return null;
    node = node[part];
  }
  return node ?? null;
}
