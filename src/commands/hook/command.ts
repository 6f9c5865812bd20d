/**
 * hook: the after-edit hook for agents. `lspq hook` lists the agents,
 * `lspq hook AGENT` prints the configuration to install (Claude Code,
 * opencode, Cursor, each as its documentation says), and `lspq hook run
 * --for AGENT`, which that configuration runs, reads the hook's JSON on
 * stdin and answers in the agent's protocol: nothing when the edit
 * introduced nothing, else its problems in a few lines.
 */
import type { Severity } from '../../answers/diagnostics';
import { type CommandOutput, LspqError, usage } from '../../common/errors';
import { serverArgs } from '../common-args';
import { defineCommand } from '../define';
import { jsonWanted, severityFlag } from '../options';
import { renderOptions } from '../../render/style';
import { AGENTS, type Agent } from './configs';
import { hookEvent } from './input';
import { agentsList, agentText, hookJson, hookOutput } from './render';
import type { HookResult } from './question';
import { HookShape } from './shape';
import { displayPath } from '../../common/paths';

const isAgent = (name: string | undefined): name is Agent => AGENTS.some((a) => a === name);

export const hook = defineCommand({
  summary: 'the after-edit hook for agents: lspq diag on the files an edit changed, only what it introduced',
  args: {
    ...serverArgs,
    agent: {
      type: 'positional',
      required: false,
      description: 'claude, opencode or cursor: its configuration; run: the hook itself (what the configuration runs)',
      valueHint: 'AGENT|run',
    },
    for: { type: 'string', description: 'With run: the agent whose hook input is on stdin', valueHint: 'AGENT' },
    severity: {
      type: 'string',
      description: 'With run: tell the agent of problems of this severity and worse (default warning)',
      valueHint: 'S',
    },
  },
  values: { agent: [...AGENTS, 'run'], for: AGENTS, severity: ['error', 'warning', 'info', 'hint'] },
  examples: ['lspq hook', 'lspq hook claude', 'lspq hook cursor --json'],
  process: 'daemon',
  stdin: { word: 'run' },
  handlers: { hook: async () => (await import('./handler')).hook },
  run: async (args, { line, ask }): Promise<CommandOutput> => {
    const json = jsonWanted(args.json, line.env);
    if (args.agent !== 'run') {
      if (args.for !== undefined)
        throw usage("--for goes with 'lspq hook run'; 'lspq hook AGENT' prints AGENT's configuration");
      if (args.agent !== undefined && !isAgent(args.agent))
        throw usage(`lspq hook takes claude, opencode, cursor or run, not '${args.agent}'; 'lspq hook' lists them`);
      const agents = args.agent === undefined ? AGENTS : [args.agent];
      if (json) return { stdout: `${JSON.stringify(hookJson(agents))}\n`, exit: 0 };
      return args.agent === undefined ? { stdout: agentsList(), exit: 0 } : { ...agentText(args.agent), exit: 0 };
    }
    const agent = args.for;
    if (!isAgent(agent))
      throw usage(
        `lspq hook run needs --for claude, opencode or cursor${agent === undefined ? '' : `, not '${agent}'`}: the agent whose hook input is on stdin`,
      );
    if (line.stdin === undefined) throw usage("lspq hook run reads the hook's JSON on stdin, and none came");
    // Warnings by default (go vet's printf check, an unused import): hints and infos only when asked.
    const severity: Severity = severityFlag(args.severity, '--severity') ?? 'warning';
    let result: HookResult;
    try {
      const event = hookEvent(agent, line.stdin, line.cwd);
      result = await ask({ op: 'hook', agent, event, severity }, args);
    } catch (err) {
      // A hook that could not check is the person's to see (exit 1), never the model's (2) nor a silent pass.
      if (!(err instanceof LspqError)) throw err;
      return { stdout: agent === 'cursor' ? '{}\n' : '', stderr: `the edit was not checked: ${err.message}`, exit: 1 };
    }
    // The agent's protocol, whatever LSPQ_JSON says: only --json asks for lspq's own document.
    if (args.json === true)
      return {
        stdout: `${JSON.stringify({
          kind: result.kind,
          compared: result.compared.map((c) => ({ ...c, path: displayPath(c.path, line.cwd) })),
          diagnostics: result.diagnostics.map((d) => ({ ...d, path: displayPath(d.path, line.cwd) })),
          incomplete: result.incomplete.map((p) => displayPath(p, line.cwd)),
          withheld: result.withheld,
          unchecked: result.unchecked.map((u) => ({ ...u, path: displayPath(u.path, line.cwd) })),
          servers: result.answered,
        })}\n`,
        exit: 0,
      };
    return hookOutput(agent, result, renderOptions(line.cwd, line.color));
  },
  shape: HookShape,
});
