/** mcp: lspq's questions and edits as tools of an MCP server over stdio, answered by the same daemon as the shell. */
import { usage } from '../../common/errors';
import { defineCommand } from '../define';
import { serverArgs } from '../common-args';

/** Only --timeout: every other common flag (--root, --server, --limit, --json, --no-daemon) is a tool call's own or fixed, so an unknown flag, not ignored. */
const ARGS = { timeout: serverArgs.timeout } as const;

export const mcp = defineCommand({
  summary: 'an MCP server over stdio: the questions and edits as tools, through the same daemon',
  args: ARGS,
  examples: ['lspq mcp', 'lspq mcp --timeout 60'],
  process: 'here',
  run: async (args, { line, commands }) => {
    // The SDK loads only here: nothing else pays for it.
    const { serveMcp } = await import('./server');
    // --timeout: each call's, unless the call gives its own.
    const seconds = args.timeout === undefined ? undefined : Number(args.timeout);
    if (seconds !== undefined && !(seconds > 0))
      throw usage(`--timeout takes a number of seconds, not '${args.timeout}'`);
    await serveMcp(commands, line.cwd, seconds === undefined ? undefined : seconds * 1000);
    return { stdout: '', exit: 0 };
  },
});
