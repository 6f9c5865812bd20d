/** The facts about the caller every question carries from a command to the engine, and who answered. */

export interface CallerContext {
  cwd: string;
  env: Record<string, string>;
  root?: string;
  server?: string;
  timeoutMs?: number;
  limit: number;
  /** -B/-A/-C: lines of context around each location, diagnostic or call. */
  context?: { before: number; after: number };
  /** A SCIP index: which (else LSPQ_INDEX, else .lspq/index.scip), and whether only it answers, or never. */
  index?: { file?: string; mode: 'auto' | 'only' | 'off' };
  /** The id the command gave its edit: the journal's, asked after if the daemon dies under it. */
  editId?: string;
  /** The folder an edit must stay in whatever else allows (an MCP server's pinned workspace). */
  confine?: string;
}

/** A server and the root it answered for. */
export interface Answered {
  server: string;
  root: string;
}

/** The distinct server and root pairs of the sessions asked, in order. */
export function answeredBy(sessions: { client: { spec: { id: string }; root: string } }[]): Answered[] {
  const seen = new Map<string, Answered>();
  for (const s of sessions)
    seen.set(`${s.client.spec.id}\0${s.client.root}`, { server: s.client.spec.id, root: s.client.root });
  return [...seen.values()];
}
