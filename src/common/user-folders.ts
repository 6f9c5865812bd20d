/** The user's own folders for lspq, as the XDG base directories name them: computed here only. */
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** The user's configuration for lspq (`lsp.json`, `trust.json`, what lspq made for the user). */
export const configFolder = (env: Env) => join(env.XDG_CONFIG_HOME || join(env.HOME || '/', '.config'), 'lspq');

/** What lspq keeps that can be made again (index tables, fetched indexes). */
export const cacheFolder = (env: Env) => join(env.XDG_CACHE_HOME || join(env.HOME || '/tmp', '.cache'), 'lspq');
