/** servers: every known server, found or not; --for FILE, the servers for it and what each can answer. */
import type { CallerContext } from '../../answers/caller';

export interface ServersQuery extends CallerContext {
  op: 'servers';
}

export interface ServersForQuery extends CallerContext {
  op: 'serversFor';
  file: string;
}

export interface ServerInfo {
  id: string;
  name: string;
  languages: string[];
  found: boolean;
  command?: string;
  /** The rule that found it: a project's node_modules/.bin, its Python environment, a tool folder, PATH. */
  foundBy?: string;
  version?: string;
  install: string;
  roots: string[];
  /** Binaries of it the repository carries that were left out, not trusted (`lspq trust` lets them run). */
  untrusted?: string[];
}

/** What one server answers for a file, from its own initialize result (its running one's, or the last one's here). */
export interface ServerForFile {
  id: string;
  root: string;
  path: string;
  /** The rule that found the binary: a project's node_modules/.bin, its Python environment, a tool folder, PATH. */
  foundBy: string;
  /** How it runs: as the user's own code (trusted), in its untrusted mode, or as configured in the box. */
  runs: 'trusted' | 'restricted' | 'contained';
  /** The Python environment a Python server was given (VIRTUAL_ENV), when one was found. */
  python?: string;
  version?: string;
  /**
   * Where what it answers is known from, nothing being started for it: its
   * running server; what it said of itself when this binary last ran here
   * (`at`); or, never run here, the registry's word of what it lacks.
   */
  known: { from: 'running' | 'remembered' | 'declared'; at?: string };
  /** lspq's commands (and fmt-range, symbols-w) and whether this server can answer each. */
  answers: Record<string, boolean>;
  /** What of those it answers only with a paid licence, and how one is given. */
  paid?: { commands: string[]; how: string };
  /** How lspq knows its diagnostics are complete (docs/servers.md). */
  diagnostics: string;
  /** tsserver plugins the project's framework needs and that were not found: uses in those files go unsearched. */
  withoutPlugins?: { plugin: string; unsearched: string[]; install: string }[];
}

export interface ServersForResult {
  file: string;
  servers: ServerForFile[];
  /** Configured for the file but not installed, with the command that installs each. */
  missing: { id: string; install: string }[];
  /** The workspace's own code left out for the file, not trusted: its .lsp.json, binaries it carries, servers refused. */
  untrusted: string[];
  /** Installed, but not for this file: why (no configuration of it above the file, a package it needs, a plugin). */
  notUsed: { id: string; why: string }[];
  /** How a workspace not trusted runs here: `contained (bubblewrap, ...)`, or `not contained: why`. */
  box: string;
}

export interface ServersResult {
  servers: ServerInfo[];
  /** The repository's own .lsp.json, left out until trusted. */
  untrusted: string[];
  /** How a workspace not trusted runs here: `contained (bubblewrap, ...)`, or `not contained: why`. */
  box: string;
}
