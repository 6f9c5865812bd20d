/**
 * Server configuration from files, in the format of Claude Code plugins'
 * `.lsp.json`: `{ "<id>": { command, args, extensionToLanguage, env,
 * initializationOptions, settings } }`. The project's `.lsp.json` (nearest
 * above the file) wins over the user's `~/.config/lspq/lsp.json`, which wins
 * over the built-in entries. A config entry with a built-in id overrides it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { LspqError, messageOf } from '../../common/errors';
import { BUILTIN_SERVERS, type ServerSpec } from './registry';
import type { Trust } from '../../trust/decision';
import { configFolder } from '../../common/user-folders';
import { readWorkspaceText } from '../../common/file-size';

/**
 * One server's entry, checked as it is read: the type and the check are
 * this one schema. Other fields of the format (transport, restartOnCrash,
 * ...) are allowed and ignored.
 */
const EntryShape = z.looseObject({
  command: z.optional(z.string()),
  args: z.optional(z.array(z.string())),
  extensionToLanguage: z.optional(z.record(z.string(), z.string())),
  env: z.optional(z.record(z.string(), z.string())),
  initializationOptions: z.optional(z.unknown()),
  settings: z.optional(z.record(z.string(), z.unknown())),
  rootMarkers: z.optional(z.array(z.string())),
});
type ConfigEntry = z.infer<typeof EntryShape>;

const ConfigShape = z.record(z.string(), EntryShape);

/** What each field must be, for the one-line error. */
const WANT: Record<string, string> = {
  command: 'a string',
  args: 'an array of strings',
  extensionToLanguage: 'an object of ".ext": "languageId"',
  env: 'an object of strings',
  settings: 'an object',
  rootMarkers: 'an array of file names',
};

function readConfig(file: string): Record<string, ConfigEntry> {
  let parsed: unknown;
  const text = readWorkspaceText(file, 'configuration');
  // Gone since it was found, or skipped (not a regular file, too large): the question says which.
  if (text === undefined) return {};
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new LspqError('usage', `${file} is not valid JSON (${messageOf(err)}); fix or remove it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new LspqError('usage', `${file} must be an object of servers: { "<id>": { "command": ... } }`);
  }
  const checked = z.safeParse(ConfigShape, parsed);
  if (checked.success) return checked.data;
  const [id, field] = (checked.error.issues[0]?.path ?? []).map(String);
  if (id !== undefined && field !== undefined && field in WANT) {
    throw new LspqError('usage', `${file}: server '${id}' field "${field}" must be ${WANT[field]}`);
  }
  throw new LspqError('usage', `${file}: server '${id ?? '?'}' must be an object with at least "command"`);
}

function applyEntry(file: string, id: string, entry: ConfigEntry, base: ServerSpec | undefined): ServerSpec {
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
  if (entry.command !== undefined) {
    spec.command = entry.command;
    spec.configuredIn = file;
    delete spec.locate;
  }
  if (entry.args) spec.args = entry.args;
  if (entry.extensionToLanguage) spec.languages = entry.extensionToLanguage;
  if (entry.env) spec.env = { ...spec.env, ...entry.env };
  if (entry.initializationOptions !== undefined) spec.initializationOptions = entry.initializationOptions;
  if (entry.settings) spec.settings = entry.settings;
  if (entry.rootMarkers) spec.rootMarkers = [entry.rootMarkers];
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
  return join(configFolder(env), 'lsp.json');
}

/** The nearest `.lsp.json` at or above `dir`. */
export function findProjectConfig(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, '.lsp.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The servers in force for a file in `dir`, most specific configuration
 * first. The project's `.lsp.json` counts only where the trust allows it
 * (the user's own always does).
 */
export function loadServers(dir: string, env: Record<string, string | undefined>, trust: Trust): ServerSpec[] {
  let specs = BUILTIN_SERVERS;
  const user = userConfigPath(env);
  if (existsSync(user)) specs = merge(specs, user);
  const project = findProjectConfig(dir);
  if (project && trust.mayRead(project, 'the servers and settings of its .lsp.json')) specs = merge(specs, project);
  return specs;
}
