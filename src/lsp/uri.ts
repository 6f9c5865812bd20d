/** file: URIs and paths; other schemes pass through as they are. */
import { fileURLToPath, pathToFileURL } from 'node:url';

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The path of a file: URI, or undefined for any other scheme (jdt:, untitled:, ...). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/**
 * A file: URI as lspq writes it, whatever the server escaped (clangd
 * writes `*` as `%2A`): URIs a server sends are compared with lspq's own.
 */
export function canonicalUri(uri: string): string {
  const path = uriToPath(uri);
  return path === undefined ? uri : pathToUri(path);
}
