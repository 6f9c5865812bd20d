/**
 * The after-edit hook's configuration for each agent, as its own
 * documentation says to write it: Claude Code's SessionStart, PreToolUse
 * and PostToolUse hooks (settings.json), opencode's plugin (as it loads,
 * tool.execute.before and .after), Cursor's sessionStart, afterFileEdit
 * and stop hooks (hooks.json). Each runs `lspq hook run --for AGENT`, which
 * reads the hook's JSON on stdin; at a session's start it prepares the
 * project's servers in the background and answers at once. Pure.
 */

export const AGENTS = ['claude', 'opencode', 'cursor'] as const;
export type Agent = (typeof AGENTS)[number];

export interface AgentConfig {
  agent: Agent;
  /** What it is, in a few words. */
  title: string;
  /** Where the configuration goes (a project's; the user's own beside it). */
  file: string;
  /** The configuration's text. */
  config: string;
  /** How the problems reach the model. */
  how: string;
}

const RUN = (agent: Agent) => `lspq hook run --for ${agent}`;

/** The edit tools Claude Code names in its hooks' matcher. */
const CLAUDE_EDITS = 'Edit|MultiEdit|Write';

const claude = (): string =>
  `${JSON.stringify(
    {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: RUN('claude') }] }],
        PreToolUse: [{ matcher: CLAUDE_EDITS, hooks: [{ type: 'command', command: RUN('claude') }] }],
        PostToolUse: [{ matcher: CLAUDE_EDITS, hooks: [{ type: 'command', command: RUN('claude') }] }],
      },
    },
    null,
    2,
  )}\n`;

const cursor = (): string =>
  `${JSON.stringify(
    {
      version: 1,
      hooks: {
        sessionStart: [{ command: RUN('cursor') }],
        afterFileEdit: [{ command: RUN('cursor') }],
        stop: [{ command: RUN('cursor') }],
      },
    },
    null,
    2,
  )}\n`;

/** opencode loads a plugin module from its plugins folder; `$` is Bun's shell, which it hands every plugin. */
const opencode = (): string =>
  [
    '// lspq: after each edit, the problems it introduced, added to what the edit tool answers the model.',
    `// (${RUN('opencode')} reads the edit on stdin; exit 2 with the problems, 0 and silent when clean.)`,
    'export const Lspq = async ({ $ }) => {',
    '  const args = new Map();',
    `  const ask = (said) => $\`${RUN('opencode')} < \${new Response(JSON.stringify(said))}\`.nothrow().quiet();`,
    '  const run = (event, input, given) =>',
    '    ask({ event, tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: given });',
    "  // As opencode starts: the project's servers prepared in the background (lspq answers at once).",
    "  ask({ event: 'start' }).then(() => {});",
    '  return {',
    "    'tool.execute.before': async (input, output) => {",
    '      args.set(input.callID, output.args);',
    "      await run('before', input, output.args);",
    '    },',
    "    'tool.execute.after': async (input, output) => {",
    '      const given = args.get(input.callID) ?? input.args;',
    '      args.delete(input.callID);',
    "      const checked = await run('after', input, given);",
    "      if (checked.exitCode === 2) output.output += '\\n\\n' + checked.stdout.toString().trimEnd();",
    '    },',
    '  };',
    '};',
    '',
  ].join('\n');

export function agentConfig(agent: Agent): AgentConfig {
  switch (agent) {
    case 'claude':
      return {
        agent,
        title: 'Claude Code: SessionStart, PreToolUse and PostToolUse hooks',
        file: '.claude/settings.json (or ~/.claude/settings.json), merged into its "hooks"',
        config: claude(),
        how: 'exit 2 with the problems on stderr, which Claude Code hands the model',
      };
    case 'opencode':
      return {
        agent,
        title: 'opencode: a plugin, as it loads and on tool.execute.before and tool.execute.after',
        file: '.opencode/plugins/lspq.js (or ~/.config/opencode/plugins/lspq.js)',
        config: opencode(),
        how: "the problems added to the edit tool's output",
      };
    case 'cursor':
      return {
        agent,
        title: 'Cursor: sessionStart, afterFileEdit and stop hooks',
        file: '.cursor/hooks.json (or ~/.cursor/hooks.json), merged into its "hooks"',
        config: cursor(),
        how: 'afterFileEdit remembers each file as it was; stop answers a followup_message with the problems, which the agent takes up',
      };
  }
}
