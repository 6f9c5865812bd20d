/**
 * What a server entry says: the fields of the registry (registry.ts) and
 * of a `.lsp.json` entry, each a behaviour lspq knows how to handle.
 */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { Containment } from '../../box/containment';
import type { StyleSettings } from '../style-settings';
import type { WorkspaceKind } from './workspaces';

/** When a server's answers are right (client.ts waits for it). */
export type Readiness =
  /** Answers are right as soon as the server answers (it queues requests itself). */
  | 'immediate'
  /** Wait until the work-done progress the server started has ended. */
  | 'progress'
  /**
   * clangd: wait until every open file has been parsed (its first
   * diagnostics arrived) and, where the project has its `indexedBy` file
   * (a compilation database), until the background index has run to its
   * end once: it checks its stored index against the files as it starts,
   * and before it has, answers from what it stored, however stale. Before
   * that it also answers a definition with the header's declaration.
   */
  | 'indexed'
  /**
   * Wait for the server's own word that it is ready: its `readyLog` line
   * (pyright: the workspace's files are enumerated; until then a references
   * search covers only open files and comes back empty, though its own
   * progress has already ended) or its `readyNotification`.
   */
  | 'enumerated'
  /**
   * intelephense: it indexes the workspace as it starts, and says so by
   * work-done progress that begins a moment after initialize: ready once
   * such progress has ended and nothing else is under way. Before, a
   * definition outside the open file came back empty (exit 1, no word).
   */
  | 'indexing'
  /**
   * rust-analyzer: wait for experimental/serverStatus quiescent, once it
   * has reported loading the workspace (a quiescent status can come first).
   */
  | 'quiescent';

/**
 * How lspq knows a file's diagnostics are complete:
 * - pull: textDocument/diagnostic (the server may announce it by registration);
 * - gopls-barrier: gopls.diagnose_files returns once the files are diagnosed;
 * - versioned: clangd publishes once per version, the synced one is awaited;
 * - tsserver: typescript-language-server publishes nothing when nothing
 *   changed, so tsserver is asked its three passes directly;
 * - pull-and-check: its own diagnostics pulled, and those of the check it
 *   runs on save (rust-analyzer's cargo check), pushed once that ends;
 * - push-each: it publishes once after every change of a file, an empty
 *   list included (Tailwind CSS): the first publish after the text was sent;
 * - push: any other server's publishes, with a quiet window (the fallback).
 * Without a declared strategy: pull where offered, else push.
 */
export type DiagnosticsStrategy =
  | 'pull'
  | 'gopls-barrier'
  | 'versioned'
  | 'tsserver'
  | 'pull-and-check'
  | 'push-each'
  | 'push';

/**
 * What a server runs of a repository's own code as it works, and how it
 * runs in a repository not trusted yet (untrusted.ts, docs/security.md):
 * - `nothing`: read and audited, it runs nothing of the repository's;
 * - `refuse`: its configuration is code (ESLint's, Gradle's, mix.exs):
 *   it starts only in a trusted repository;
 * - a restriction: it runs with these changes until the repository is
 *   trusted, and `loses` says what it cannot answer so.
 */
export type WorkspaceCode =
  | { runs: 'nothing'; why: string }
  | {
      runs: string;
      untrusted: 'refuse';
      /** Its configuration files that are code: those at the root are named with what it runs. */
      configs?: string[];
    }
  | { runs: string; untrusted: Restriction };

/** Settings, options and environment a restriction lays over a server's own. */
export interface Overlay {
  settings?: Record<string, unknown>;
  initializationOptions?: Record<string, unknown>;
  env?: Record<string, string>;
}

/**
 * A server's untrusted mode: what it reads is named by lspq, so nothing
 * that names a program, a module to load or a folder of executables comes
 * from the repository.
 */
export interface Restriction extends Overlay {
  /** typescript-language-server: the user's TypeScript (`tsserver.path`), never the one the repository ships. */
  userTypeScript?: boolean;
  /**
   * The projects it loads, named by lspq (rust-analyzer's `linkedProjects`):
   * the files of these names at its root; where there is none, it does not
   * run (a project file it would find itself can name programs).
   */
  linkedProjects?: { files: string[]; overlay: (paths: string[]) => Overlay };
  /** The sysroot the user's toolchain reports, asked outside the workspace (rust-analyzer's `cargo.sysroot`). */
  userSysroot?: { overlay: (sysroot: string) => Overlay };
  /**
   * Files that still let it run code whatever lspq sets (cargo's
   * `.cargo/config.toml`, read from every folder above the crate): left out
   * where one is at or above the root, but for the user's own `home`
   * folder of it (`$CARGO_HOME`).
   */
  refuseWith?: { files: string[]; home?: { env: string; fallback: string } };
  /** What it cannot answer in this mode, and why (rust-analyzer's diag: cargo check). */
  loses?: { diagnostics: string };
}

export interface ServerSpec {
  id: string;
  name: string;
  /** Servers of one family are alternatives (diag asks only the first found); others complement each other. */
  family?: string;
  /** Binary name looked up in the project's node_modules/.bin and PATH, unless `locate` says otherwise. */
  command: string;
  args: string[];
  /** File extension (with dot) or exact file name → LSP language id. */
  languages: Record<string, string>;
  /** Groups of root markers, tried in order: the first group found above the file wins. */
  rootMarkers: string[][];
  /**
   * Rust: the top-most Cargo.toml that declares [workspace]. Python: without
   * a marker, the folder above the file's top-most package, so imports of
   * the package resolve (a root inside the package breaks them).
   */
  rootRule?: 'cargo-workspace' | 'python-package';
  /** The workspaces it answers for as one (workspaces.ts): its root is the workspace's, whichever package asks. */
  workspaces?: WorkspaceKind;
  /**
   * It answers from the projects of its open files only (both TypeScript
   * servers): before a question that spans the workspace, a file of each
   * project (each tsconfig) is opened on it.
   */
  projects?: 'tsconfig';
  /**
   * Only its references, renames, file moves and symbol search span the
   * projects of a workspace (tsserver): implementations and callers are
   * asked again from a reference inside each other project (projects.ts).
   */
  crossProject?: 'references-only';
  install: string;
  /** A special binary lookup (TypeScript 7 ships its server inside a platform package). */
  locate?: 'typescript-native';
  initializationOptions?: unknown;
  /** Answers to workspace/configuration, by section. */
  settings?: Record<string, unknown>;
  /**
   * Where the server reads the Python interpreter to resolve imports with
   * (pyright: `python.pythonPath`); given the project's environment's.
   * Servers without it read VIRTUAL_ENV (pylsp's jedi) or PATH.
   */
  interpreterSetting?: 'python.pythonPath';
  /** How the server is told a file's indentation before it computes an edit, when it ignores the request's options. */
  style?: StyleSettings;
  env?: Record<string, string>;
  /**
   * Environment variables that change the server's answers: part of the
   * pool key. PATH counts only through `pathTools`.
   */
  envKeys: string[];
  /**
   * Programs the server runs by name from PATH (node for a Node server, go
   * for gopls): the pool is keyed on where PATH finds them, not on the PATH
   * string, which a git hook changes (git's exec folder first) without
   * changing any answer.
   */
  pathTools?: string[];
  readiness: Readiness;
  /**
   * Its first workspace-wide answer (refs, impls) for a place can be
   * partial with no signal to wait for (pyright leaves out uses in string
   * annotations of files it has not checked, intelephense overriding
   * methods): asked again until two answers agree, once per place.
   */
  settles?: boolean;
  /**
   * Resolves what a place names only when asked of that place itself: a
   * workspace-wide answer asked alone is partial (intelephense leaves out
   * overriding methods, again each time the file is opened anew), so the
   * place is hovered first, awaited, each time.
   */
  resolvesOnHover?: boolean;
  diagnostics?: DiagnosticsStrategy;
  /** With readiness 'enumerated': the server's log line that says it is ready. */
  readyLog?: RegExp;
  /** With readiness 'enumerated': a notification of its own that says so (Tailwind's, once a project is built). */
  readyNotification?: string;
  /**
   * Its log line saying no project of its covers a file, the file's path in
   * the first group (Tailwind CSS, where no stylesheet or configuration
   * takes it in): ready for it, and it has nothing to say of it.
   */
  unservedLog?: RegExp;
  /**
   * The error it logs when it failed on the file it was asked about, and
   * answers as if the file were clean all the same (ESLint's "An unexpected
   * error occurred", its config failing to load): diagnostics asked while
   * it logs one are not whole, and the error it logs next says why.
   */
  failureLog?: RegExp;
  /**
   * Its log line saying it could not load the project and answers from
   * nothing from now on (graphql-lsp, a schema that does not build: every
   * file "clean", every definition empty), the reason on the next line: it
   * is stopped, the question under way exits 3 with the reason, and the
   * next one starts it afresh (it says so again while the project is broken).
   */
  failedProjectLog?: RegExp;
  /** With readiness 'indexed': the file at the root that makes the server index the project in the background. */
  indexedBy?: string;
  versionArgs: string[];
  /** Requests it is known not to offer: when no installed server can answer, the others are suggested. */
  lacks?: (keyof ServerCapabilities)[];
  /**
   * It answers workspace/willRenameFiles with the edits to what imports a
   * moved file (lspq mv). A capability of few servers, so the registry
   * says it of each, for `servers --for` where the server never ran here.
   */
  updatesImportsOnMove?: true;
  /**
   * Files whose changes on disk it expects to hear of without registering
   * for them: its editor extension watches them for it (VS Code's
   * `synchronize.fileEvents`; intelephense's `**\/*.php`), so lspq sends
   * their events as if it had registered these globs.
   */
  fileEvents?: string[];
  /** Asked before the other servers of its files for these (vue-language-server: a .vue file's outline). */
  answersFirst?: (keyof ServerCapabilities)[];
  /** Its TypeScript questions are relayed to the TypeScript server with this plugin (vue-language-server's, Vue's). */
  relaysTsserverTo?: string;
  /** TypeScript server plugins it loads where a project's framework needs them (ts-plugins.ts). */
  tsPlugins?: TsPlugin[];
  /**
   * Frameworks whose files it cannot see, having no plugins (TypeScript
   * 7): in a project with one of these packages it is left out, said on
   * stderr, and a server that loads the framework's plugin answers.
   */
  blindTo?: string[];
  /** Requests it answers only with a paid licence (intelephense's premium features), and how one is given. */
  paid?: { capabilities: (keyof ServerCapabilities)[]; how: string };
  /**
   * Counts a position's character in code points, whatever encoding it
   * announces (jedi-language-server hands LSP's character to jedi as its
   * column, yet answers utf-8 when offered it). It is offered utf-32 alone,
   * and lspq converts as utf-32 whatever comes back.
   */
  countsCodePoints?: true;
  /**
   * For fmt: 'first' formats before the file's other servers (ruff is the
   * Python formatter); 'last' is asked only when no other can (pylsp
   * offers formatting but formats nothing without its formatter plugins).
   */
  formatter?: 'first' | 'last';
  /** The formatter it runs for fmt, named in fmt's answer: gopls formats as gofmt does, rust-analyzer runs rustfmt. */
  formatsWith?: string;
  /**
   * For fmt: how to tell "already formatted" from "formatted nothing", where
   * the server answers both with no edits. 'probe': it formats nothing at
   * all without a formatter plugin (pylsp), which a document no formatter
   * leaves as it is tells (`plugins`: what would format). 'syntax-errors':
   * it answers nothing for a file its formatter cannot parse
   * (rust-analyzer's rustfmt), which the file's syntax errors tell.
   */
  quietFormatter?:
    | { by: 'probe'; file: string; text: string; plugins: string }
    | { by: 'syntax-errors'; formatter: string; code: string };
  /**
   * Diagnoses a file from its own text alone and only when that text
   * changes (docker-langserver publishes nothing for a text sent again
   * unchanged): after a change elsewhere, what it last published of the
   * file stands, and nothing is sent to ask again (push-each).
   */
  diagnosesTextAlone?: true;
  /**
   * Formats one document at a time: it runs each formatting request on a
   * thread of its own, and its formatters share state (pylsp with
   * autopep8: of two files formatted at once, one came back unchanged).
   */
  formatsOneAtATime?: true;
  /**
   * Only where one of its root markers is above the file (ESLint, Tailwind
   * CSS): it serves files other servers answer for, and has nothing to say
   * in a project that does not use it.
   */
  needsMarker?: boolean;
  /**
   * A process it answers through (typescript-language-server's tsserver):
   * its log line saying the worker died, a word of the worker's command
   * line, and a command that asks the worker something through the server
   * (`workspace/executeCommand`), with how an answer from the worker looks.
   * When the worker dies (the line, or an empty answer with no such child
   * alive, or one the worker does not answer the probe after), the server
   * is stopped as crashed, never left answering "nothing found".
   */
  worker?: {
    exitLog: RegExp;
    command: RegExp;
    probe: { command: string; arguments: unknown[]; answered: (answer: unknown) => boolean };
  };
  /**
   * It sees one build configuration of several a project may have (gopls:
   * this platform's, these tags): workspace-wide questions are asked again
   * under the others the project's files need (engine/go-builds.ts).
   */
  buildConfigurations?: 'go';
  /**
   * The npm package of the project's it runs (ESLint: the project's eslint):
   * where none is installed above the root, it is left out with a note, as
   * the tool itself could not run either.
   */
  needsPackage?: string;
  /** The most workspace symbols it answers with (gopls: 100): an answer that long is cut by the server, and said so. */
  symbolCap?: number;
  /** What it runs of the repository's code and how it runs untrusted; a built-in without it starts only when trusted. */
  workspaceCode?: WorkspaceCode;
  /**
   * How it is told the packages of a Python environment it may read but
   * not run (one not trusted): as files, by these settings (pyright's
   * extraPaths), so imports still resolve.
   */
  packagePaths?: (dirs: string[]) => Overlay;
  /**
   * Its binary is tsc (TypeScript 7's): `--showConfig -p CONFIG` lists the files a tsconfig takes in as tsc reads it,
   * which diag --all checks (engine/tsconfig-files.ts) instead of every source git lists.
   */
  showsConfig?: true;
  /**
   * Its files are documents or data (Markdown, YAML, JSON, TOML, CSS, HTML), no program's source: where no server
   * for such a file is installed, diag names it as not checked and that is a note; a program's file is exit 3.
   */
  checksDocuments?: true;
  /** Set where it runs in its untrusted mode: the restriction in force (diag says what it cannot answer so). */
  restricted?: Restriction;
  /** Set where it runs as configured in a box, for a workspace not trusted (src/box/): the box it runs in. */
  contained?: Containment;
  /** The configuration file that set its command, named when that command is missing. */
  configuredIn?: string;
  /** File names ending so are not the project's sources though their extension matches (TypeScript's declaration files). */
  notSources?: string[];
  /** How it takes in files changed on disk; 'watched' unless said. */
  diskChanges?: DiskChanges;
  /**
   * How it can be shown files created or deleted in memory only (diag
   * --patch, a dry run's --verify): `created`, opened as documents that
   * other files' imports then resolve to; `deleted`, by a watched-files
   * event it believes over the disk ('event'), or an empty document it
   * takes for no file ('empty'). Unset: it reads them from the disk, and
   * such a check is exit 3 naming it (docs/servers.md: files held in memory).
   * `inFoldersOnDisk`: a created file's imports resolve only where its
   * folder is on disk (TypeScript 7 asks the disk whether a folder exists).
   */
  memoryFiles?: { created: boolean; inFoldersOnDisk?: true; deleted?: 'event' | 'empty' };
  /**
   * Folders of build output under the root (cargo's target): never walked
   * for sources, and a change inside is not a change to the project (it
   * would cost a push server's settle window on the next diag).
   */
  outputDirs?: string[];
}

/** A TypeScript server plugin a framework's files need (ts-plugins.ts). */
export interface TsPlugin {
  /** The plugin's npm package. */
  name: string;
  /** The package whose presence above the root says the project needs it (svelte). */
  forPackage: string;
  /** The framework's language server, beside whose own install the user's plugin is looked for. */
  beside: string;
  /** Files the TypeScript server reads only with the plugin (.vue), by extension, with their language ids. */
  languages?: Record<string, string>;
  /** Files whose uses of a .ts file's exports the TypeScript server knows only with the plugin loaded (.svelte). */
  reaches?: string[];
}

/**
 * How a server takes in files changed on disk by other programs
 * (docs/servers.md, files changed on disk):
 * - watched: workspace/didChangeWatchedFiles for the globs it registered,
 *   applied before the request that follows (gopls, pyright, both
 *   TypeScript servers);
 * - documents: the changed files are also given to it as open documents,
 *   since it re-reads them from disk on a thread of its own and a request
 *   sent at once can be answered from the old text (rust-analyzer);
 * - pinned-documents: the same, kept open for as long as the server runs,
 *   since its index of a closed file is never rebuilt (clangd); past
 *   MAX_PINNED_DOCUMENTS the server is started again instead, and it
 *   re-indexes what changed as it starts.
 */
export type DiskChanges = 'watched' | 'documents' | 'pinned-documents';
