/**
 * The box on macOS: a Seatbelt profile for `sandbox-exec`, written from the
 * same rules as bubblewrap's and Landlock's. Untested until a macOS machine
 * runs the suite (docs/security.md says so): macOS programs need much of the
 * system to start, so the profile allows by default and denies what the
 * rules keep out: every write but the rules' folders, every read under the
 * user's home but the rules' paths there, and the network.
 */
import type { BoxRules } from './rules';

/** A path as Seatbelt's string literal. */
const literal = (path: string) => `"${path.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** The profile for `rules`, with `home` the user's home (what is hidden but for the rules' paths in it). */
export function seatbeltProfile(rules: BoxRules, home: string | undefined): string {
  const lines = ['(version 1)', '(allow default)'];
  // Later rules win: deny the whole, then allow the rules' parts back.
  lines.push('(deny file-write*)');
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))');
  for (const path of rules.write) lines.push(`(allow file-write* (subpath ${literal(path)}))`);
  if (home) {
    lines.push(`(deny file-read* (subpath ${literal(home)}))`);
    // The folders above a path it may read are listed (not read) on the way to it.
    lines.push(`(allow file-read-metadata (subpath ${literal(home)}))`);
    for (const path of [...rules.read, ...rules.write])
      if (path === home || path.startsWith(`${home}/`)) lines.push(`(allow file-read* (subpath ${literal(path)}))`);
  }
  // Unix sockets too: a server must not reach the daemon's.
  if (!rules.network) lines.push('(deny network*)');
  return `${lines.join('\n')}\n`;
}
