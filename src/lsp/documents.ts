/**
 * The documents one server has open, kept equal to the disk. An open
 * document is an overlay the server trusts over the disk, so before every
 * request each one is compared with the file and re-sent or closed.
 */
import { existsSync, statSync, type Stats } from 'node:fs';
import {
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  FileChangeType,
  type Diagnostic,
} from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import { maxFileBytes, readWorkspaceFile, skippedFiles, tooLarge } from '../common/file-size';
import type { LspClient } from './client';
import { languageIdFor } from './servers/registry';
import { pathToUri } from './uri';

/** Servers analyse every open file; beyond this many the least recently used is closed. */
export const MAX_OPEN_DOCUMENTS = 64;

interface OpenDocument {
  path: string;
  uri: string;
  version: number;
  text: string;
  mtimeMs: number;
  size: number;
  /** Set while the server holds text that is not the disk's (the staged content diag --staged checks). */
  overlay?: boolean;
  /** The text and world at the last complete push diagnosis: unchanged since, the server has nothing new to say. */
  diagnosed?: { text: string; world: number };
  /** The last pulled diagnostic report, for previousResultId. */
  pulled?: PulledReport;
  /** The world when the server was last given its text: changed since, what it made of the text may be stale. */
  syncedWorld: number;
  /** The server's publish count when it was last given the text: a publish after it is about this text. */
  sentAt: number;
}

/** What Documents needs of its server's client: the server's entry, whether it runs, its state, and notifications. */
export type DocumentsClient = Pick<LspClient, 'spec' | 'alive' | 'state' | 'sendNotification'>;

export interface PulledReport {
  resultId: string;
  items: Diagnostic[];
}

function readDisk(path: string): { text: string; mtimeMs: number; size: number } | undefined {
  const got = readWorkspaceFile(path, 'source', { quiet: true });
  if (got.stats?.isFile() && got.stats.size > maxFileBytes()) throw tooLarge(path, got.stats.size);
  if (!got.read) {
    // Not a regular file (a FIFO put where the file was): said as the question's, never read.
    if (got.skipped) skippedFiles.getStore()?.set(path, got.skipped);
    return undefined;
  }
  return { text: got.bytes.toString('utf8'), mtimeMs: got.stats.mtimeMs, size: got.stats.size };
}

export class Documents {
  private readonly open = new Map<string, OpenDocument>();
  /** Kept open for as long as the server runs (its index would be stale for them once closed: clangd). */
  private readonly pins = new Set<string>();
  /** The last version each path was given, so a document opened again goes on counting (a server keys answers on it). */
  private readonly versions = new Map<string, number>();
  /** Files on disk the server was told are gone (a file a patch deletes, checked in memory), until `unhide`. */
  private readonly hidden = new Set<string>();
  /**
   * Counts changes the server was told of: a document's new text, files
   * changed on disk under the root. A file's diagnostics depend on others,
   * so an answer remembered at one count is stale at the next.
   */
  private world = 0;
  /** Counts changes of the disk's files the server was told of (text laid over the disk is not one). */
  private diskGeneration = 0;
  /** What the server said of files as they are on disk, with the disk generation it said it at and how it was asked. */
  private readonly diskDiagnoses = new Map<string, { generation: number; how: string; items: Diagnostic[] }>();
  /**
   * The generation diagnoses were last remembered at, and each file changed
   * on disk since with the text the server held of it then (undefined: not
   * known, a file it did not have open): a tree that puts each back is that
   * disk again (the after-edit hook's state before the edit).
   */
  private sinceRemembered: { generation: number; changed: Map<string, string | undefined> } | undefined;

  constructor(private readonly client: DocumentsClient) {}

  isOpen(path: string): boolean {
    return this.open.has(path);
  }

  version(path: string): number | undefined {
    return this.open.get(path)?.version;
  }

  get paths(): string[] {
    return [...this.open.keys()];
  }

  /** Opens `path` or brings the server's copy up to date; returns the text the server now has. */
  async sync(path: string): Promise<string> {
    const doc = this.open.get(path);
    if (doc) {
      const changed = await this.refresh(path, doc);
      if (changed === 'closed') throw new LspqError('file_not_found', `${path} no longer exists`);
      // Most recently used last, so eviction takes the oldest.
      this.open.delete(path);
      this.open.set(path, doc);
      return doc.text;
    }
    const disk = readDisk(path);
    if (!disk) throw new LspqError('file_not_found', `${path} does not exist or is not a file; check the path`);
    const languageId = languageIdFor(this.client.spec, path) ?? 'plaintext';
    const uri = pathToUri(path);
    const version = this.nextVersion(path);
    const sentAt = this.sending(path);
    await this.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text: disk.text },
    });
    this.open.set(path, { path, uri, version, ...disk, syncedWorld: this.world, sentAt });
    await this.evict();
    return disk.text;
  }

  /** Re-sends every open document that changed on disk and closes deleted ones. Returns how many changed. */
  async refreshAll(): Promise<number> {
    let changed = 0;
    for (const [path, doc] of [...this.open]) {
      if ((await this.refresh(path, doc)) !== 'same') changed++;
    }
    return changed;
  }

  /** `restoring`: the disk's text given back after an overlay, which is no change of the disk. */
  private async refresh(path: string, doc: OpenDocument, restoring = false): Promise<'same' | 'changed' | 'closed'> {
    if (doc.overlay) return 'same';
    let st: Stats;
    try {
      st = statSync(path);
    } catch {
      if (!restoring) this.diskChanged([path]);
      await this.close(path);
      return 'closed';
    }
    if (st.mtimeMs === doc.mtimeMs && st.size === doc.size) return 'same';
    const disk = readDisk(path);
    if (!disk) {
      if (!restoring) this.diskChanged([path]);
      await this.close(path);
      return 'closed';
    }
    doc.mtimeMs = disk.mtimeMs;
    doc.size = disk.size;
    if (disk.text === doc.text) return 'same';
    if (!restoring) this.diskChanged([path]);
    await this.change(doc, disk.text);
    // The file on disk changed: to the server this is a save. Not to one whose save starts a check lspq
    // drives itself (rust-analyzer's cargo check: each save cancels the check under way and starts another).
    if (this.client.spec.diagnostics !== 'pull-and-check')
      await this.client.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri: doc.uri } });
    return 'changed';
  }

  /** Tells the server an open document was saved: its text is the disk's. */
  async saved(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (doc)
      await this.client.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri: doc.uri } });
  }

  private nextVersion(path: string): number {
    const version = (this.versions.get(path) ?? 0) + 1;
    this.versions.set(path, version);
    return version;
  }

  /**
   * Whether the server last parsed the document before something it
   * depends on may have changed (another document, a file on disk): a
   * server that publishes once per version (clangd) says nothing new of it
   * until it is opened again.
   */
  outdated(path: string): boolean {
    const doc = this.open.get(path);
    return doc !== undefined && doc.syncedWorld !== this.world;
  }

  /** Closes and opens the document again, so the server parses it afresh, under a new version. */
  async reopen(path: string): Promise<void> {
    await this.close(path);
    await this.sync(path);
  }

  /** The server is about to be given `path`'s text: what it said of the old text no longer holds. */
  private sending(path: string): number {
    this.client.state.unserved.delete(path);
    return this.client.state.publishes;
  }

  /** The server's publish count when it was last given `path`'s text. */
  sentAt(path: string): number | undefined {
    return this.open.get(path)?.sentAt;
  }

  /**
   * Sends the document's text again under a new version, so a server that
   * publishes after every change (Tailwind CSS) looks at it afresh, without
   * the empty publish a close would bring.
   */
  async resend(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (doc) await this.change(doc, doc.text);
  }

  private async change(doc: OpenDocument, text: string): Promise<void> {
    doc.text = text;
    doc.version = this.nextVersion(doc.path);
    this.world++;
    doc.syncedWorld = this.world;
    doc.sentAt = this.sending(doc.path);
    await this.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text }],
    });
  }

  /**
   * Gives the server `text` for `path` in place of the disk's, as an editor's
   * unsaved buffer (the staged content of a file), until `endOverlay`.
   */
  async overlay(path: string, text: string): Promise<void> {
    // A file on disk is opened as it is, then edited, as in an editor: pyright, given a document opened with other
    // text than the disk's, rechecks it but not the files that import it (a caller a patch breaks stayed clean).
    if (!this.open.has(path) && readDisk(path)) await this.sync(path);
    let doc = this.open.get(path);
    if (!doc) {
      const uri = pathToUri(path);
      const languageId = languageIdFor(this.client.spec, path) ?? 'plaintext';
      const version = this.nextVersion(path);
      const sentAt = this.sending(path);
      await this.client.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version, text },
      });
      this.world++;
      doc = { path, uri, version, text, mtimeMs: Number.NaN, size: -1, syncedWorld: this.world, sentAt };
      this.open.set(path, doc);
      await this.evict();
    } else if (doc.text !== text) {
      await this.change(doc, text);
    }
    doc.overlay = true;
  }

  /**
   * The overlay ends: the server gets the disk's text back now (or the
   * document is closed if the file is gone), so no later question sees it.
   */
  async endOverlay(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (!doc?.overlay) return;
    doc.overlay = undefined;
    if (!this.client.alive) {
      this.open.delete(path);
      return;
    }
    doc.mtimeMs = Number.NaN;
    await this.refresh(path, doc, true);
  }

  /**
   * Tells the server `path` is gone though it is still on disk, as a
   * watched-files event (a server that believes the event over the disk:
   * TypeScript 7), until `unhide`: a file a patch deletes, checked in memory.
   */
  async hide(path: string): Promise<void> {
    await this.close(path);
    this.hidden.add(path);
    this.world++;
    await this.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToUri(path), type: FileChangeType.Deleted }],
    });
  }

  /** The server is told of `path` as it is on disk again. */
  async unhide(path: string): Promise<void> {
    if (!this.hidden.delete(path)) return;
    this.world++;
    if (!this.client.alive) return;
    await this.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToUri(path), type: existsSync(path) ? FileChangeType.Created : FileChangeType.Deleted }],
    });
  }

  /** The world when the server last diagnosed the disk's own texts (no overlay, nothing hidden). */
  private diagnosedDiskAt = -1;

  /** The server has just diagnosed what it holds: if that is the disk's, it is remembered so (warm). */
  diagnosedNow(): void {
    if (this.hidden.size === 0 && ![...this.open.values()].some((d) => d.overlay)) this.diagnosedDiskAt = this.world;
  }

  /**
   * Nothing changed since the server last diagnosed the disk's texts: a
   * server that keeps what it computed (TypeScript 7's checker) answers
   * for the disk again at little cost.
   */
  get warm(): boolean {
    return this.diagnosedDiskAt === this.world;
  }

  /** Files under the root changed on disk (`paths`; undefined: which is not known): remembered diagnoses no longer hold. */
  touchWorld(paths?: string[]): void {
    this.world++;
    this.diskChanged(paths);
  }

  /** Called before an open document takes the disk's new text, so the text the server held is still at hand. */
  private diskChanged(paths: string[] | undefined): void {
    this.diskGeneration++;
    const since = this.sinceRemembered;
    if (!since) return;
    if (paths === undefined) {
      this.sinceRemembered = undefined;
      return;
    }
    for (const path of paths) {
      if (since.changed.has(path)) continue;
      const doc = this.open.get(path);
      since.changed.set(path, doc && !doc.overlay ? doc.text : undefined);
    }
  }

  /** The disk generation while the server holds the disk's texts alone (no overlay, nothing hidden); else undefined. */
  diskState(): number | undefined {
    if (this.hidden.size > 0 || [...this.open.values()].some((d) => d.overlay)) return undefined;
    return this.diskGeneration;
  }

  /** What the server said of `path` on disk, asked `how`, when `generation` (diskState before asking) still holds. */
  rememberDiskDiagnoses(path: string, how: string, items: Diagnostic[], generation: number): void {
    if (this.diskState() !== generation) return;
    if (this.sinceRemembered?.generation !== generation) {
      this.sinceRemembered = { generation, changed: new Map() };
      // What was said at an earlier generation holds for no question from now on: one generation is kept.
      for (const [p, held] of this.diskDiagnoses) if (held.generation !== generation) this.diskDiagnoses.delete(p);
    }
    this.diskDiagnoses.set(path, { generation, how, items });
  }

  /**
   * What the server said of `path`, asked `how`, of the texts `tree` lays
   * over the disk now (only this server's files), where that is the disk
   * it said it of: the tree puts back each file changed since as the server
   * held it then, and holds no other. An empty tree is the disk now.
   */
  diagnosesUnder(path: string, how: string, tree: ReadonlyMap<string, string | null>): Diagnostic[] | undefined {
    if (tree.size === 0) return this.diskDiagnosesOf(path, how);
    const since = this.sinceRemembered;
    if (!since || this.diskState() === undefined || since.changed.size !== tree.size) return undefined;
    // A file whose text then is not known (undefined) matches no text of the tree, nor does a file gone (null).
    for (const [p, text] of tree) if (since.changed.get(p) !== text) return undefined;
    const held = this.diskDiagnoses.get(path);
    return held && held.generation === since.generation && held.how === how ? held.items : undefined;
  }

  /** What the server said of `path` as it is on disk, asked `how`, if nothing on disk changed since and it holds the disk now. */
  diskDiagnosesOf(path: string, how: string): Diagnostic[] | undefined {
    const held = this.diskDiagnoses.get(path);
    const now = this.diskState();
    return held && now === held.generation && held.how === how ? held.items : undefined;
  }

  markDiagnosed(path: string): void {
    const doc = this.open.get(path);
    if (doc) doc.diagnosed = { text: doc.text, world: this.world };
  }

  /** Diagnosed before, and nothing the server knows of has changed since. */
  diagnosedUnchanged(path: string): boolean {
    const doc = this.open.get(path);
    return doc?.diagnosed !== undefined && doc.diagnosed.text === doc.text && doc.diagnosed.world === this.world;
  }

  pulled(path: string): PulledReport | undefined {
    return this.open.get(path)?.pulled;
  }

  rememberPull(path: string, report: PulledReport): void {
    const doc = this.open.get(path);
    if (doc) doc.pulled = report;
  }

  async close(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (!doc) return;
    this.open.delete(path);
    this.pins.delete(path);
    if (this.client.alive) {
      await this.client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: doc.uri } });
    }
  }

  /** Keeps `path` open from now on: eviction passes it by. */
  pin(path: string): void {
    if (this.open.has(path)) this.pins.add(path);
  }

  get pinned(): number {
    return this.pins.size;
  }

  private async evict(): Promise<void> {
    if (this.open.size - this.pins.size <= MAX_OPEN_DOCUMENTS) return;
    for (const [path, doc] of [...this.open]) {
      if (this.open.size - this.pins.size <= MAX_OPEN_DOCUMENTS) return;
      // Text laid over the disk's is the question's answer until it ends: closed, the server would read the disk.
      if (!this.pins.has(path) && !doc.overlay) await this.close(path);
    }
  }

  uri(path: string): string {
    return this.open.get(path)?.uri ?? pathToUri(path);
  }

  /** The text the server has for an open document. */
  text(path: string): string | undefined {
    return this.open.get(path)?.text;
  }
}
