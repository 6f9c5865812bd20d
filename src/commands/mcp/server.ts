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
import type { Listed } from '../command';
import { commandWords, inputSchema, type ToolModel, toolModels } from './tools';
import * as z from 'zod/mini';

/**
 * A command's --json shape as an MCP output schema (an error is a tool
 * error, not an answer). MCP wants an object at the top: a shape that is
 * one of several objects (symbols, calls) says so beside its anyOf.
 */
function outputSchema(shape: z.ZodMiniType): Record<string, unknown> {
  const schema = z.toJSONSchema(shape, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
  return schema.type === 'object' ? schema : { type: 'object', ...schema };
}

function lineFor(words: string[], cwd: string, json: boolean, writes: boolean, timeoutMs?: number): CommandLine {
  const [command, ...args] = words;
  return {
    command: command!,
    args: json ? [...args, '--json'] : args,
    cwd,
    env: process.env as Record<string, string>,
    color: false,
    progress: false,
    json,
    help: false,
    ...(writes ? { editId: crypto.randomUUID() } : {}),
    ...(timeoutMs !== undefined && !words.includes('--timeout') ? { timeoutMs } : {}),
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

async function call(tool: ToolModel, args: unknown, base: string, timeoutMs?: number): Promise<CallToolResult> {
  const asked = commandWords(tool, args);
  if (!asked.ok) return failure(`lspq ${tool.name}: ${asked.why}`);
  const cwd = resolve(base, asked.cwd ?? '.');
  const { applying } = asked;
  // An edit that writes is asked once; anything else both ways at once (the daemon answers the second warm).
  const [json, human] = applying
    ? [await ask(lineFor(asked.words, cwd, true, true, timeoutMs)), undefined]
    : await Promise.all([
        ask(lineFor(asked.words, cwd, true, false, timeoutMs)),
        ask(lineFor(asked.words, cwd, false, false, timeoutMs)),
      ]);
  if (failed(json)) return failure(json.stderr ?? `lspq ${tool.name} failed (exit ${json.exit})`);
  let structured: Record<string, unknown>;
  try {
    structured = JSON.parse(json.stdout) as Record<string, unknown>;
  } catch {
    return failure(`lspq ${tool.name} printed no JSON answer`);
  }
  const text = human
    ? [human.stdout.trimEnd(), ...(human.warnings ?? []), human.stderr ?? ''].filter(Boolean).join('\n')
    : JSON.stringify(structured, null, 1);
  return { content: [{ type: 'text', text: text || '(nothing found)' }], structuredContent: structured };
}

export async function serveMcp(
  commands: Readonly<Record<string, Listed>>,
  cwd: string,
  timeoutMs?: number,
): Promise<void> {
  const tools = toolModels(commands, outputSchema);
  const server = new Server({ name: 'lspq', version: BUILD.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: inputSchema(t) as { type: 'object' },
      ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: 'object' } } : {}),
      annotations: { readOnlyHint: !t.writes, destructiveHint: false, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) return failure(`no tool '${request.params.name}'; lspq's tools: ${tools.map((t) => t.name).join(', ')}`);
    return call(tool, request.params.arguments, cwd, timeoutMs);
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.on('end', () => done());
  });
  await server.connect(transport);
  await closed;
}
