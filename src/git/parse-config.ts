/**
 * `git config --list --show-scope -z`: `scope NUL key LF value NUL`, or
 * `scope NUL key NUL` for a key set without a value. Pure.
 */
import type { ConfigEntry } from './types';

export function parseConfigList(text: string): ConfigEntry[] {
  const tokens = text.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const scope = tokens[i] as string;
    const item = tokens[i + 1] as string;
    const nl = item.indexOf('\n');
    entries.push(
      nl < 0 ? { scope, key: item, value: null } : { scope, key: item.slice(0, nl), value: item.slice(nl + 1) },
    );
  }
  return entries;
}
