/**
 * The environment of a program in a box: an allowlist of the caller's
 * variables (the locale, where the toolchains are), PATH's absolute
 * entries, and HOME, TMPDIR and the XDG folders in its scratch. Nothing
 * that makes a program load code by name (NODE_OPTIONS, PYTHONPATH,
 * LD_PRELOAD, ...) and no token passes, whatever the user's shell holds.
 */
import { delimiter, isAbsolute, join } from 'node:path';

type Env = Record<string, string | undefined>;

/** Variables that say where a toolchain is or how it reads a project, never what code to load. */
const KEPT = new Set([
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'USER',
  'LOGNAME',
  'NO_COLOR',
  'GOROOT',
  'GOPATH',
  'GOMODCACHE',
  'GOFLAGS',
  'GOOS',
  'GOARCH',
  'GOTOOLCHAIN',
  'GOWORK',
  'GOEXPERIMENT',
  'GOPRIVATE',
  'GONOSUMDB',
  'CGO_ENABLED',
  'RUSTUP_HOME',
  'CARGO_HOME',
  'RUSTUP_TOOLCHAIN',
  'RUSTC',
  'CARGO',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'NVM_DIR',
  'VOLTA_HOME',
  'JAVA_HOME',
]);

/** What a git call needs of the caller besides: the repository git works on, as a hook's environment names it. */
const GIT_ONLY = /^GIT_/;

export interface BoxEnvOptions {
  /** HOME, TMPDIR and the XDG folders lie here. */
  scratch: string;
  /** git's own variables pass (GIT_DIR, GIT_INDEX_FILE, lspq's GIT_CONFIG_PARAMETERS). */
  git?: boolean;
  /** A call that reaches the network (git push): the ssh agent's socket passes. */
  network?: boolean;
}

/** The scratch's folders a program is told of: its home, temporary folder and XDG folders. */
export const scratchFolders = (scratch: string) => ({
  home: join(scratch, 'home'),
  tmp: join(scratch, 'tmp'),
});

/** The box's environment for `env` (the caller's, with what lspq set for the server). */
export function boxEnv(env: Env, o: BoxEnvOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (KEPT.has(name) || name.startsWith('LC_') || (o.git && GIT_ONLY.test(name))) out[name] = value;
  }
  if (o.network && env.SSH_AUTH_SOCK) out.SSH_AUTH_SOCK = env.SSH_AUTH_SOCK;
  const home = env.HOME;
  // The toolchains' homes where the caller's HOME implied them: the box's HOME is another folder.
  if (home) {
    out.RUSTUP_HOME ??= join(home, '.rustup');
    out.CARGO_HOME ??= join(home, '.cargo');
    out.GOPATH ??= join(home, 'go');
    out.PYENV_ROOT ??= join(home, '.pyenv');
    out.NVM_DIR ??= join(home, '.nvm');
  }
  const path = (env.PATH ?? '')
    .split(delimiter)
    .filter((d) => isAbsolute(d))
    .join(delimiter);
  out.PATH = path || '/usr/bin:/bin';
  const { home: boxHome, tmp } = scratchFolders(o.scratch);
  out.HOME = boxHome;
  out.TMPDIR = tmp;
  out.XDG_CACHE_HOME = join(boxHome, '.cache');
  out.XDG_CONFIG_HOME = join(boxHome, '.config');
  out.XDG_DATA_HOME = join(boxHome, '.local', 'share');
  out.XDG_STATE_HOME = join(boxHome, '.local', 'state');
  // Go's build cache is written: in the scratch, as its default under HOME would be.
  out.GOCACHE = join(boxHome, '.cache', 'go-build');
  // Nothing can be fetched from inside: said at once rather than after a network time-out.
  out.GOPROXY = 'off';
  out.CARGO_NET_OFFLINE = 'true';
  if (!o.git) out.CARGO_TARGET_DIR = join(o.scratch, 'target');
  return out;
}
