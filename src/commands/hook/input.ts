/**
 * What an agent's hook hands `lspq hook run` on stdin, checked and turned
 * into one event: a session begun (`start`: prepare the project's servers),
 * a file about to be edited (`before`: remember it as it is), edited
 * (`after`: what the edit introduced; Cursor's `edited`: remember it as it
 * was), or the agent's turn over (Cursor's `stop`: what its edits
 * introduced). Each agent's own field names, as its documentation
 * gives them; anything else is no edit to check. Pure.
 */
import * as z from 'zod/mini';
import { usage } from '../../common/errors';
import { resolvePath } from '../../common/paths';
import type { Agent } from './configs';

/** One replacement an edit made: undone, it gives the text before. */
export interface Replacement {
  old: string;
  new: string;
  all: boolean;
}

export interface HookEvent {
  kind: 'before' | 'after' | 'edited' | 'stop' | 'start' | 'none';
  /** The agent's session (conversation): files remembered are kept per session. */
  session: string;
  files: string[];
  /** The edit's replacements, in order, where the tool says (Edit, MultiEdit, Cursor's edits). */
  edits?: Replacement[];
  /** A session's start: the project's folder, whose servers to prepare. */
  folder?: string;
}

const Str = z.optional(z.string());
const Replace = z.looseObject({ old_string: z.string(), new_string: z.string(), replace_all: z.optional(z.boolean()) });

const ClaudeInput = z.looseObject({
  hook_event_name: z.string(),
  session_id: Str,
  cwd: Str,
  tool_name: Str,
  tool_input: z.optional(
    z.looseObject({
      file_path: Str,
      old_string: Str,
      new_string: Str,
      replace_all: z.optional(z.boolean()),
      edits: z.optional(z.array(Replace)),
    }),
  ),
  tool_response: z.optional(z.unknown()),
});

const OpencodeInput = z.looseObject({
  event: z.enum(['start', 'before', 'after']),
  sessionID: Str,
  tool: Str,
  args: z.optional(
    z.looseObject({ filePath: Str, oldString: Str, newString: Str, replaceAll: z.optional(z.boolean()) }),
  ),
});

const CursorInput = z.looseObject({
  hook_event_name: z.string(),
  conversation_id: Str,
  file_path: Str,
  workspace_roots: z.optional(z.array(z.string())),
  edits: z.optional(z.array(z.looseObject({ old_string: z.string(), new_string: z.string() }))),
});

function checked<T>(shape: z.ZodMiniType<T>, value: unknown, agent: Agent): T {
  const r = z.safeParse(shape, value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw usage(
      `the ${agent} hook's input is not what lspq knows (${issue?.path.join('.') || 'its top'}: ${issue?.message ?? 'wrong shape'}); run 'lspq hook ${agent}' for the configuration`,
    );
  }
  return r.data;
}

const NONE = (session: string): HookEvent => ({ kind: 'none', session, files: [] });

export function hookEvent(agent: Agent, stdin: string, cwd: string): HookEvent {
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch {
    throw usage(`the ${agent} hook's input is not JSON; lspq hook run reads what the hook hands it on stdin`);
  }
  const at = (p: string | undefined, dir = cwd) => (p ? [resolvePath(dir, p)] : []);
  switch (agent) {
    case 'claude': {
      const i = checked(ClaudeInput, value, agent);
      const session = i.session_id ?? '';
      if (i.hook_event_name === 'SessionStart') return { kind: 'start', session, files: [], folder: i.cwd ?? cwd };
      const kind =
        i.hook_event_name === 'PreToolUse' ? 'before' : i.hook_event_name === 'PostToolUse' ? 'after' : 'none';
      const input = i.tool_input;
      if (kind === 'none' || !input?.file_path) return NONE(session);
      const edits =
        input.edits?.map((e) => ({ old: e.old_string, new: e.new_string, all: e.replace_all === true })) ??
        (input.old_string !== undefined && input.new_string !== undefined
          ? [{ old: input.old_string, new: input.new_string, all: input.replace_all === true }]
          : undefined);
      return { kind, session, files: at(input.file_path, i.cwd ?? cwd), ...(edits ? { edits } : {}) };
    }
    case 'opencode': {
      const i = checked(OpencodeInput, value, agent);
      if (i.event === 'start') return { kind: 'start', session: i.sessionID ?? '', files: [], folder: cwd };
      const a = i.args;
      const edits =
        a?.oldString !== undefined && a.newString !== undefined
          ? [{ old: a.oldString, new: a.newString, all: a.replaceAll === true }]
          : undefined;
      return { kind: i.event, session: i.sessionID ?? '', files: at(a?.filePath), ...(edits ? { edits } : {}) };
    }
    case 'cursor': {
      const i = checked(CursorInput, value, agent);
      const session = i.conversation_id ?? '';
      if (i.hook_event_name === 'stop') return { kind: 'stop', session, files: [] };
      if (i.hook_event_name === 'sessionStart')
        return { kind: 'start', session, files: [], folder: i.workspace_roots?.[0] ?? cwd };
      if (i.hook_event_name !== 'afterFileEdit' || !i.file_path) return NONE(session);
      const edits = i.edits?.map((e) => ({ old: e.old_string, new: e.new_string, all: false }));
      return { kind: 'edited', session, files: at(i.file_path), ...(edits ? { edits } : {}) };
    }
  }
}

/**
 * The text before `edits` were made, from the text after them: each
 * replacement undone, last first, where its new text stands exactly once;
 * undefined where that cannot be told (a replace-all, a new text found
 * twice or not at all, an insertion of nothing).
 */
export function undone(after: string, edits: Replacement[]): string | undefined {
  let text = after;
  for (const e of [...edits].reverse()) {
    if (e.all || e.new === '') return undefined;
    const at = text.indexOf(e.new);
    if (at < 0 || text.indexOf(e.new, at + 1) >= 0) return undefined;
    text = text.slice(0, at) + e.old + text.slice(at + e.new.length);
  }
  return text;
}
