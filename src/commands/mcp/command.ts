/** mcp: lspq's questions and edits as tools of an MCP server over stdio, answered by the same daemon as the shell. */
import { statSync } from 'node:fs';
import { usage } from '../../common/errors';
import { resolvePath } from '../../common/paths';
import { defineCommand } from '../define';
import { serverArgs } from '../common-args';

/**
 * --root pins the workspace (default: the folder it starts in), and
 * --timeout; every other common flag (--server, --limit, --json,
 * --no-daemon) is a tool call's own or fixed, so an unknown flag, not ignored.
 */
const ARGS = {
  root: { ...serverArgs.root, description: 'The workspace every call is confined to (default: the current folder)' },
  timeout: serverArgs.timeout,
} as const;

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

export const mcp = defineCommand({
  summary: 'an MCP server over stdio: the questions and edits as tools, through the same daemon',
  args: ARGS,
  examples: ['lspq mcp', 'lspq mcp --root . --timeout 60'],
  process: 'here',
  run: async (args, { line, commands }) => {
    // The SDK loads only here: nothing else pays for it.
    const { serveMcp } = await import('./server');
    // --timeout: each call's, unless the call gives its own.
    const seconds = args.timeout === undefined ? undefined : Number(args.timeout);
    if (seconds !== undefined && !(seconds > 0))
      throw usage(`--timeout takes a number of seconds, not '${args.timeout}'`);
    const root = resolvePath(line.cwd, args.root ?? '.');
    if (!isFolder(root)) throw usage(`--root ${args.root}: no such folder`);
    await serveMcp(commands, root, seconds === undefined ? undefined : seconds * 1000);
    return { stdout: '', exit: 0 };
  },
});
