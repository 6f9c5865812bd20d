/**
 * lspq mcp: an MCP server over stdio (the official SDK's), whose tools are
 * lspq's commands (tools.ts). Every call is a command line sent to the
 * daemon, as the shell sends it: any number of agent sessions share one
 * warm server per root and one memory limit. A question's result is its
 * --json answer as structured content and its lines for a person as text;
 * a failure is a tool error carrying the one-line message.
 */
import { resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { forward } from '../../cli/forward';
import { BUILD } from '../../common/build-info';
import { type CommandOutput, errorOutput } from '../../common/errors';
import type { CommandLine } from '../../common/messages';
import type { Listed } from '../define';
import { commandWords, inputSchema, instructions, type ToolModel, toolModels } from './tools';
import * as z from 'zod/mini';
import { setVariables } from '../../common/environment';
import { isWithin } from '../../common/paths';
import { realOf } from '../../common/real-path';
import { inGitFolder, whereItLands } from '../../common/workspace-guard';

function lineFor(words: string[], root: string, writes: boolean, timeoutMs?: number, stdin?: string): CommandLine {
  const [command, ...args] = words;
  if (command === undefined) throw new Error('internal: a tool call with no command word');
  return {
    command,
    // --json before the words: after their `--` it would be a word.
    args: ['--json', ...args],
    cwd: root,
    // No edit of a call lands outside the pinned workspace, whatever its server's root.
    confine: root,
    env: setVariables(),
    color: false,
    progress: false,
    json: true,
    alsoText: true,
    help: false,
    ...(writes ? { editId: crypto.randomUUID() } : {}),
    ...(timeoutMs !== undefined && !words.includes('--timeout') ? { timeoutMs } : {}),
    ...(stdin !== undefined ? { stdin } : {}),
  };
}

/** A command line through the daemon; a failure to reach it is the same one-line error the shell prints. */
async function ask(line: CommandLine): Promise<CommandOutput> {
  try {
    return await forward(line);
  } catch (err) {
    return errorOutput(err, line.json);
  }
}

const failure = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

/** Exit 0 and 1 are answers (1: nothing found); 2, 3 and 4 are failures. */
const failed = (out: CommandOutput) => out.exit >= 2;

/**
 * One call, run once: its JSON answer as structured content (checked
 * against the tool's output schema, the command's shape) and its lines for
 * a person as text, both from the same run, so an edit is never made twice.
 */
async function call(tool: Tool, args: unknown, root: string, timeoutMs?: number): Promise<CallToolResult> {
  const asked = commandWords(tool.model, args);
  if (!asked.ok) return failure(`lspq ${tool.model.name}: ${asked.why}`);
  // A path outside the pinned workspace (by `..`, an absolute path or a link) is refused, read or written.
  const outside = asked.paths.find((p) => !isWithin(whereItLands(resolve(root, p)), realOf(root)));
  if (outside !== undefined)
    return failure(
      `lspq ${tool.model.name}: ${outside} is outside the workspace this MCP server was started for (${root}); start another in that folder (lspq mcp --root DIR)`,
    );
  // git runs what its hooks folder holds: no edit tool names a path in a .git folder, dry run or not.
  const intoGit = tool.model.writes ? asked.paths.find((p) => inGitFolder(resolve(root, p), root)) : undefined;
  if (intoGit !== undefined)
    return failure(
      `lspq ${tool.model.name}: ${intoGit} is inside a .git folder, which no MCP edit writes (git runs its hooks); nothing was written`,
    );
  const out = await ask(lineFor(asked.words, root, asked.applying, timeoutMs, asked.stdin));
  if (failed(out)) return failure(out.stderr ?? `lspq ${tool.model.name} failed (exit ${out.exit})`);
  let structured: unknown;
  try {
    structured = JSON.parse(out.stdout);
  } catch {
    return failure(`lspq ${tool.model.name} printed no JSON answer`);
  }
  // Every command's --json answer is one object (MCP's structured content must be one).
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured))
    return failure(`lspq ${tool.model.name} printed no JSON object`);
  if (tool.shape) {
    const checked = z.safeParse(tool.shape, structured);
    if (!checked.success)
      return failure(`lspq ${tool.model.name} answered outside its declared output schema; see 'lspq daemon logs'`);
  }
  const text = [out.text ?? '', ...(out.warnings ?? [])].filter(Boolean).join('\n');
  return {
    content: [{ type: 'text', text: text || '(nothing found)' }],
    structuredContent: { ...structured },
  };
}

/** A tool, and the command's shape its answers are checked against. */
interface Tool {
  model: ToolModel;
  shape?: z.ZodMiniType;
}

export async function serveMcp(
  commands: Readonly<Record<string, Listed>>,
  root: string,
  timeoutMs?: number,
): Promise<void> {
  const tools: Tool[] = toolModels(commands).map((model) => {
    const shape = commands[model.name]?.shape;
    return shape ? { model, shape } : { model };
  });
  const server = new Server(
    { name: 'lspq', version: BUILD.version },
    { capabilities: { tools: {} }, instructions: instructions(root) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ model: t }) => ({
      name: t.name,
      description: t.description,
      inputSchema: inputSchema(t) as { type: 'object' },
      ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: 'object' } } : {}),
      // A hint of harm means something only beside a tool that writes.
      annotations: t.writes
        ? { readOnlyHint: false, destructiveHint: false, openWorldHint: false }
        : { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.model.name === request.params.name);
    if (!tool)
      return failure(`no tool '${request.params.name}'; lspq's tools: ${tools.map((t) => t.model.name).join(', ')}`);
    return call(tool, request.params.arguments, root, timeoutMs);
  });
  const transport = new StdioServerTransport();
  // Piped input ends after its last request: every request read is answered, and written, before the server exits.
  const unanswered = new Set<unknown>();
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if ('id' in message && !('method' in message)) unanswered.delete(message.id);
  };
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.on('end', () => done());
  });
  await server.connect(transport);
  const read = transport.onmessage;
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message) unanswered.add(message.id);
    read?.(message);
  };
  await closed;
  while (unanswered.size > 0) await Bun.sleep(10);
  await new Promise((written) => process.stdout.write('', written));
}
