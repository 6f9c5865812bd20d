/**
 * A command line's words, read once where they arrive (the command's
 * process, or a batch's request line): the command, its words, and what the
 * path needs before the command's own parser runs (--json for an error,
 * --help, --no-daemon, --timeout for how long to wait). The result travels
 * with the command line; nothing downstream scans the words again for these.
 *
 * Global flags may come before the command, as with git and gh:
 * `lspq --json def ...` and `lspq --no-daemon refs ...` are the same
 * questions as with the flags after the command. They are moved after the
 * command word, where every command's parser reads them.
 */
/** The global flags that may stand before the command: those that take a value, and switches. */
export const LEADING_VALUED = ['--root', '--server', '--timeout', '--limit'] as const;
export const LEADING_SWITCHES = ['--json', '--no-json', '--no-daemon'] as const;
const TAKES_VALUE = new Set<string>(LEADING_VALUED);
const SWITCHES = new Set<string>(LEADING_SWITCHES);

/** The words with any global flags that stood before the command moved after it. */
export function commandFirst(argv: readonly string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  for (let word = argv[0]; word !== undefined; word = argv[i]) {
    const value = argv[i + 1];
    if (SWITCHES.has(word) || (word.includes('=') && TAKES_VALUE.has(word.slice(0, word.indexOf('='))))) {
      leading.push(word);
      i++;
    } else if (TAKES_VALUE.has(word) && value !== undefined) {
      leading.push(word, value);
      i += 2;
    } else break;
  }
  const command = argv[i];
  if (leading.length === 0 || command === undefined) return [...argv];
  return [command, ...leading, ...argv.slice(i + 1)];
}

export interface Scanned {
  command: string | undefined;
  /** The command's words, global flags that came first moved among them. */
  args: string[];
  /** --json (the last of --json and --no-json wins, as in parsing) or LSPQ_JSON=1. */
  json: boolean;
  /** --help or -h; never for a command that passes its words on (git). */
  help: boolean;
  /** --no-daemon, or LSPQ_NO_DAEMON=1. */
  noDaemon: boolean;
  /** --timeout S in milliseconds, as the command's parser will read it; undefined if absent or not a positive number. */
  timeoutMs: number | undefined;
}

/** Reads the words once; `passthrough` names commands whose words are their own (git reads its own --help). */
export function scanWords(
  words: readonly string[],
  env: Record<string, string | undefined>,
  passthrough: (command: string) => boolean = () => false,
): Scanned {
  const [command, ...args] = commandFirst(words);
  const own = command !== undefined && passthrough(command);
  let json = env.LSPQ_JSON === '1';
  let help = false;
  let noDaemon = env.LSPQ_NO_DAEMON === '1';
  let seconds: string | undefined;
  // Only flags and no command (`lspq --json`): the flags still say how to report that.
  const read = command?.startsWith('-') ? [command, ...args] : args;
  // A plain loop: the first call of a builtin such as Array.prototype.some compiles it (0.1-0.2 ms).
  for (let i = 0, word = read[0]; word !== undefined; word = read[++i]) {
    if (word === '--') break;
    if (word === '--json') json = true;
    else if (word === '--no-json') json = false;
    else if (word.startsWith('--json=')) json = word === '--json=true';
    else if (word === '--no-daemon' || word.startsWith('--daemon=')) noDaemon = true;
    else if ((word === '--help' || word === '-h') && !own) help = true;
    else if (word === '--timeout') seconds = read[i + 1];
    else if (word.startsWith('--timeout=')) seconds = word.slice('--timeout='.length);
  }
  const n = Number(seconds);
  const timeoutMs = seconds !== undefined && Number.isFinite(n) && n > 0 ? n * 1000 : undefined;
  return { command, args, json, help, noDaemon, timeoutMs };
}

/** How a command's words ask for its stdin (its declaration's `stdin`). */
export type StdinWords = { flag: string } | { word: string } | { anyWord: string };

/**
 * Whether a command's words ask for its stdin, as its declaration says
 * (`--FLAG -` or `--FLAG=-`; WORD as the first positional word; WORD as any
 * positional word). `takesValue` names the flags whose next word is their
 * value, never a positional one (`hook --severity warning run`).
 */
export function asksStdin(
  how: StdinWords | undefined,
  args: readonly string[],
  takesValue: (flag: string) => boolean = () => false,
): boolean {
  if (!how) return false;
  const positional = (word: string, first: boolean) =>
    'word' in how ? (first ? word === how.word : false) : 'anyWord' in how && word === how.anyWord;
  let first = true;
  for (let i = 0, word = args[0]; word !== undefined; word = args[++i]) {
    if (word === '--') return args.slice(i + 1).some((w, at) => positional(w, first && at === 0));
    if ('flag' in how) {
      if (word === `--${how.flag}=-` || (word === `--${how.flag}` && args[i + 1] === '-')) return true;
      continue;
    }
    if (word.startsWith('-') && word !== '-') {
      const name = word.replace(/^--?/, '');
      if (!name.includes('=') && takesValue(name)) i++;
      continue;
    }
    if (positional(word, first)) return true;
    if ('word' in how) return false;
    first = false;
  }
  return false;
}
