/**
 * Global flags may come before the command, as with git and gh:
 * `lspq --json def ...` and `lspq --no-daemon refs ...` are the same
 * questions as with the flags after the command. They are moved after the
 * command word, where every command's parser reads them.
 */
const TAKES_VALUE = new Set(['--root', '--server', '--timeout', '--limit']);
const SWITCHES = new Set(['--json', '--no-json', '--no-daemon']);

/** The words with any global flags that stood before the command moved after it. */
export function commandFirst(argv: readonly string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const word = argv[i]!;
    const name = word.split('=', 1)[0]!;
    if (SWITCHES.has(word)) {
      leading.push(word);
      i++;
    } else if (TAKES_VALUE.has(name) && word.includes('=')) {
      leading.push(word);
      i++;
    } else if (TAKES_VALUE.has(word) && i + 1 < argv.length) {
      leading.push(word, argv[i + 1]!);
      i += 2;
    } else break;
  }
  if (leading.length === 0 || i >= argv.length) return [...argv];
  return [argv[i]!, ...leading, ...argv.slice(i + 1)];
}
