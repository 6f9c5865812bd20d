/** A command as the command's process needs to know it: plain data (declarations.ts inlines it into main). */
import type { ArgsDef } from 'citty';
import type { StdinWords } from '../common/words';

/**
 * Where the engine runs a command. `daemon`: the warm daemon (or this
 * process with --no-daemon), for anything that asks a language server.
 * `here`: always the command's own process: git needs no server and lets
 * git's own messages reach the terminal; daemon control talks to the daemon.
 * `look`: the daemon if one runs (it knows the servers it holds), else
 * this process; it never starts one (`servers`: looking starts nothing).
 */
export type Process = 'daemon' | 'here' | 'look';

/** A command as the command's process needs it: plain data, inlined into its bundle (declarations.ts). */
export interface Declaration {
  summary: string;
  args: ArgsDef;
  /** Real command lines, shown at the end of --help: the test suite runs each one in one of its fixtures. */
  examples: readonly string[];
  process: Process;
  /** The positional argument takes any number of words (diag FILE...). */
  variadic?: boolean;
  /** The words are another program's (git's): the command takes them raw, --help included. */
  passthrough?: boolean;
  /** It reads its requests from stdin, one per line, and answers each as it goes (batch). */
  stream?: boolean;
  /** The finite values a flag or the positional takes, by its name (shell completion, the MCP tools' schemas). */
  values?: Readonly<Record<string, readonly string[]>>;
  /** Its --timeout when none is given, in seconds, where the common default is too short (an indexer's run). */
  timeoutSeconds?: number;
  /**
   * It may write files: its command line names its edit, and a command
   * whose daemon dies under it asks the edit's journal what happened
   * instead of sending it again.
   */
  writes?: boolean;
  /** Its MCP tool (lspq mcp), where it has one: a question, or an edit and how it is kept a dry run. */
  mcp?: McpTool;
  /**
   * When its words ask for it, the command's process reads stdin whole and
   * sends it with the line: `--FLAG -` (diag --patch -), WORD as the
   * first positional word (hook run), or WORD as any positional word
   * (apply's `-` among its patches). Never otherwise: a script's stdin is
   * not lspq's to take.
   */
  stdin?: StdinWords;
}

/** The input every MCP edit tool takes to write (`apply: true`); without it, a dry run. */
export const MCP_WRITE = 'apply';

/**
 * A command as an MCP tool. An edit writes only with the tool's `apply:
 * true`; without it the command is told its dry run in so many words
 * (`dryRun`: a flag that makes it write nothing), or not told to write
 * (`write`: the flag that makes it write). `chosenBy`: inputs one of which
 * must be given for the edit to be one (actions: which action).
 */
export type McpTool = (
  | { kind: 'question' }
  | { kind: 'edit'; dryRun: string; chosenBy?: readonly string[] }
  | { kind: 'edit'; write: string }
) & {
  /** The arguments a call must give (by the command's names), listed as the tool's `required`. */
  required?: readonly string[];
  /**
   * Flags or the positional argument whose value the tool takes as text
   * and hands the command on its stdin (`--FLAG -`, or `-` as the word),
   * by name, with the input's description: diag's `patch` and apply's are
   * the diff itself, never a path.
   */
  text?: Readonly<Record<string, string>>;
};
