/**
 * The documents one server has open, kept equal to the disk. An open
 * document is an overlay the server trusts over the disk, so before every
 * request each one is compared with the file and re-sent or closed.
 */
import { readFileSync, statSync } from 'node:fs';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
} from 'vscode-languageserver-protocol';
import { LspqError } from '../errors';
import type { LspClient } from './client';
import { languageIdFor } from './servers/registry';
import { pathToUri } from './uri';

/** Servers analyse every open file; beyond this many the least recently used is closed. */
export const MAX_OPEN_DOCUMENTS = 64;

interface OpenDocument {
  uri: string;
  version: number;
  text: string;
  mtimeMs: number;
  size: number;
}

function readDisk(path: string): { text: string; mtimeMs: number; size: number } | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile()) return undefined;
    return { text: readFileSync(path, 'utf8'), mtimeMs: st.mtimeMs, size: st.size };
  } catch {
    return undefined;
  }
}

export class Documents {
  private readonly open = new Map<string, OpenDocument>();

  constructor(private readonly client: LspClient) {}

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
    await this.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text: disk.text },
    });
    this.open.set(path, { uri, version: 1, ...disk });
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

  private async refresh(path: string, doc: OpenDocument): Promise<'same' | 'changed' | 'closed'> {
    let st;
    try {
      st = statSync(path);
    } catch {
      await this.close(path);
      return 'closed';
    }
    if (st.mtimeMs === doc.mtimeMs && st.size === doc.size) return 'same';
    const disk = readDisk(path);
    if (!disk) {
      await this.close(path);
      return 'closed';
    }
    doc.mtimeMs = disk.mtimeMs;
    doc.size = disk.size;
    if (disk.text === doc.text) return 'same';
    doc.text = disk.text;
    doc.version++;
    await this.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text: disk.text }],
    });
    // The file on disk changed: to the server this is a save (rust-analyzer checks on save).
    await this.client.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri: doc.uri } });
    return 'changed';
  }

  /** Sends the same text again as a new version: servers that push diagnostics then push a fresh wave. */
  async resend(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (!doc) return;
    doc.version++;
    await this.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text: doc.text }],
    });
  }

  async close(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (!doc) return;
    this.open.delete(path);
    if (this.client.alive) {
      await this.client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: doc.uri } });
    }
  }

  private async evict(): Promise<void> {
    while (this.open.size > MAX_OPEN_DOCUMENTS) {
      const oldest = this.open.keys().next().value;
      if (oldest === undefined) return;
      await this.close(oldest);
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
