/**
 * The after-edit hook's configuration for each agent, as its own
 * documentation says to write it: Claude Code's PreToolUse and PostToolUse
 * hooks (settings.json), opencode's plugin (tool.execute.before and
 * .after), Cursor's afterFileEdit and stop hooks (hooks.json). Each runs
 * `lspq hook run --for AGENT`, which reads the hook's JSON on stdin. Pure.
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
    '  const run = (event, input, given) => {',
    '    const edit = JSON.stringify({ event, tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: given });',
    `    return $\`${RUN('opencode')} < \${new Response(edit)}\`.nothrow().quiet();`,
    '  };',
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
        title: 'Claude Code: PreToolUse and PostToolUse hooks',
        file: '.claude/settings.json (or ~/.claude/settings.json), merged into its "hooks"',
        config: claude(),
        how: 'exit 2 with the problems on stderr, which Claude Code hands the model',
      };
    case 'opencode':
      return {
        agent,
        title: 'opencode: a plugin on tool.execute.before and tool.execute.after',
        file: '.opencode/plugins/lspq.js (or ~/.config/opencode/plugins/lspq.js)',
        config: opencode(),
        how: "the problems added to the edit tool's output",
      };
    case 'cursor':
      return {
        agent,
        title: 'Cursor: afterFileEdit and stop hooks',
        file: '.cursor/hooks.json (or ~/.cursor/hooks.json), merged into its "hooks"',
        config: cursor(),
        how: 'afterFileEdit remembers each file as it was; stop answers a followup_message with the problems, which the agent takes up',
      };
  }
}
