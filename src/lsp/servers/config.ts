/**
 * Server configuration from files, in the format of Claude Code plugins'
 * `.lsp.json`: `{ "<id>": { command, args, extensionToLanguage, env,
 * initializationOptions, settings } }`. The project's `.lsp.json` (nearest
 * above the file) wins over the user's `~/.config/lspq/lsp.json`, which wins
 * over the built-in entries. A config entry with a built-in id overrides it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LspqError } from '../../errors';
import { BUILTIN_SERVERS, type ServerSpec } from './registry';

interface ConfigEntry {
  command?: unknown;
  args?: unknown;
  extensionToLanguage?: unknown;
  env?: unknown;
  initializationOptions?: unknown;
  settings?: unknown;
  rootMarkers?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const stringRecord = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string');

function readConfig(file: string): Record<string, ConfigEntry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new LspqError('usage', `${file} is not valid JSON (${(err as Error).message}); fix or remove it`);
  }
  if (!isRecord(parsed))
    throw new LspqError('usage', `${file} must be an object of servers: { "<id>": { "command": ... } }`);
  const out: Record<string, ConfigEntry> = {};
  for (const [id, entry] of Object.entries(parsed)) {
    if (!isRecord(entry))
      throw new LspqError('usage', `${file}: server '${id}' must be an object with at least "command"`);
    out[id] = entry;
  }
  return out;
}

function applyEntry(file: string, id: string, entry: ConfigEntry, base: ServerSpec | undefined): ServerSpec {
  const bad = (field: string, want: string) =>
    new LspqError('usage', `${file}: server '${id}' field "${field}" must be ${want}`);
  if (entry.command !== undefined && typeof entry.command !== 'string') throw bad('command', 'a string');
  if (entry.args !== undefined && !stringArray(entry.args)) throw bad('args', 'an array of strings');
  if (entry.extensionToLanguage !== undefined && !stringRecord(entry.extensionToLanguage))
    throw bad('extensionToLanguage', 'an object of ".ext": "languageId"');
  if (entry.env !== undefined && !stringRecord(entry.env)) throw bad('env', 'an object of strings');
  if (entry.settings !== undefined && !isRecord(entry.settings)) throw bad('settings', 'an object');
  if (entry.rootMarkers !== undefined && !stringArray(entry.rootMarkers))
    throw bad('rootMarkers', 'an array of file names');
  if (!base && (entry.command === undefined || entry.extensionToLanguage === undefined)) {
    throw new LspqError('usage', `${file}: new server '${id}' needs "command" and "extensionToLanguage"`);
  }
  const spec: ServerSpec = base
    ? { ...base }
    : {
        id,
        name: id,
        command: '',
        args: [],
        languages: {},
        rootMarkers: [],
        install: `see ${file}`,
        envKeys: ['PATH'],
        readiness: 'immediate',
        versionArgs: ['--version'],
      };
  if (typeof entry.command === 'string') {
    spec.command = entry.command;
    spec.configuredIn = file;
    delete spec.locate;
  }
  if (stringArray(entry.args)) spec.args = entry.args;
  if (stringRecord(entry.extensionToLanguage)) spec.languages = entry.extensionToLanguage;
  if (stringRecord(entry.env)) spec.env = { ...spec.env, ...entry.env };
  if (entry.initializationOptions !== undefined) spec.initializationOptions = entry.initializationOptions;
  if (isRecord(entry.settings)) spec.settings = entry.settings;
  if (stringArray(entry.rootMarkers)) spec.rootMarkers = [entry.rootMarkers];
  return spec;
}

function merge(specs: ServerSpec[], file: string): ServerSpec[] {
  const entries = readConfig(file);
  const configured: ServerSpec[] = [];
  for (const [id, entry] of Object.entries(entries)) {
    configured.push(
      applyEntry(
        file,
        id,
        entry,
        specs.find((s) => s.id === id),
      ),
    );
  }
  const ids = new Set(configured.map((s) => s.id));
  return [...configured, ...specs.filter((s) => !ids.has(s.id))];
}

export function userConfigPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || '/', '.config');
  return join(base, 'lspq', 'lsp.json');
}

/** The nearest `.lsp.json` at or above `dir`. */
export function findProjectConfig(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, '.lsp.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(d) === d) return undefined;
  }
}

/** The servers in force for a file in `dir`, most specific configuration first. */
export function loadServers(dir: string, env: Record<string, string | undefined>): ServerSpec[] {
  let specs = BUILTIN_SERVERS;
  const user = userConfigPath(env);
  if (existsSync(user)) specs = merge(specs, user);
  const project = findProjectConfig(dir);
  if (project) specs = merge(specs, project);
  return specs;
}
