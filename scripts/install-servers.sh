#!/usr/bin/env bash
# Install every language server (and the other tools) the lspq test suite needs.
#
#   bash scripts/install-servers.sh      # then: source scripts/env.sh
#
# Into <repo>/.tools (gitignored): bin/ (gopls, scip-go, taplo, links to
# clangd and rust-analyzer, the Python servers), node_modules/ (the npm
# servers and the tests' npm packages), venv/ and jedi-venv/, wheels/,
# tailwind3/ and tailwind4/, php-src/ and projects/.
#
# Once per machine: what takes time (building gopls, scip-go and taplo,
# npm and pip installs, unpacking packages) is made once per version into
# the machine's cache, ${XDG_CACHE_HOME:-~/.cache}/lspq-tools (LSPQ_TOOLS_CACHE
# overrides), and .tools only links to it or copies it with hard links; a
# fresh clone, or .tools removed, costs seconds. System packages (clangd,
# bubblewrap, zsh, fish, qemu-user) are scripts/install-system.sh's: this
# script installs nothing system-wide and stops naming it where one is
# missing. rust-analyzer comes from rustup (into the user's ~/.rustup).
#
# In parallel: the Go, npm, Python, cargo and system steps are independent
# and run at once, each into its own log, printed when it ends.
#
# Idempotent: each step writes a stamp (.tools/.stamps) naming the
# versions it installed and skips itself while the stamp and what it made
# are there, so a second run takes a few seconds. Any tool that cannot be
# installed makes the script exit non-zero with a message naming the step.
set -euo pipefail

# ---- pinned versions --------------------------------------------------------
GOPLS_VERSION=v0.23.0            # v0.24.0 needs go >= 1.27; v0.23.0 needs go >= 1.26.0
PYRIGHT_VERSION=1.1.414
TSLS_VERSION=5.3.0               # v6 needs Node >= 22; v5 runs on Node >= 20
TYPESCRIPT_VERSION=5.9.3         # 5.x ships lib/tsserver.js (typescript 7 does not)
CLANGD_APT_PACKAGE=clangd        # Debian 12: clangd 14
RUFF_VERSION=0.17.6              # `ruff server`: a second Python server, for merged diagnostics
PYLSP_VERSION=1.15.0             # python-lsp-server with pyflakes: a third Python server (push diagnostics)
AUTOPEP8_VERSION=2.3.2           # pylsp's formatter plugin, in a folder of its own (.tools/pylsp-autopep8, on PYTHONPATH
                                 # where a test gives pylsp a formatter; without it pylsp formats nothing)
PYFLAKES_VERSION=3.4.0
JEDI_LS_VERSION=0.47.0           # jedi-language-server (PyPI), in a venv of its own: its jedi is not pylsp's
RUST_TOOLCHAIN=stable
SIX_VERSION=1.17.0               # a one-file package for the tests' project environments
PRE_COMMIT_VERSION=4.7.0         # the pre-commit framework, to run the repository's .pre-commit-hooks.yaml
LEFTHOOK_VERSION=2.2.2           # lefthook (npm ships its binary), to run the README's lefthook recipe
BASH_LS_VERSION=5.8.1            # bash-language-server (Node >= 20)
YAML_LS_VERSION=1.25.0           # yaml-language-server (2.x needs Node >= 22.13)
LANGSERVERS_EXTRACTED_VERSION=4.10.0  # vscode-{json,css,html,eslint}-language-server
# ESLint itself, for the ESLint server's tests (a project's own eslint: the tests link .tools/node_modules in).
ESLINT_VERSION=9.39.5
INTELEPHENSE_VERSION=1.18.5      # intelephense (PHP), npm
GRAPHQL_LSP_VERSION=3.5.0        # graphql-language-service-cli (graphql-lsp), npm
SVELTE_LS_VERSION=0.18.4         # svelte-language-server (svelteserver), npm
TS_SVELTE_PLUGIN_VERSION=0.3.52  # typescript-svelte-plugin, loaded into tsserver for .ts files of a Svelte project
SVELTE_VERSION=5.57.3            # svelte itself, for the Svelte tests' project
VUE_TOOLS_VERSION=3.3.11         # @vue/language-server and @vue/typescript-plugin (loaded into tsserver for .vue files)
VUE_VERSION=3.5.45               # vue itself, for the Vue tests' project
TAILWIND_LS_VERSION=0.16.0       # @tailwindcss/language-server (no dependencies: tailwindcss is the project's)
TAILWIND4_VERSION=4.3.5          # tailwindcss 4 and 3, each in a folder of its own (a project's node_modules):
TAILWIND3_VERSION=3.4.19         # in .tools/node_modules it would mark every test project as using Tailwind
PHP_MONOLOG_DEB=2.9.1-1          # a real PHP library's sources (Debian's php-monolog), for the PHP tests
PHP_PSR_LOG_DEB=1.1.4-2          # and the interfaces it implements (php-psr-log)
DOCKERFILE_LS_VERSION=0.15.0     # docker-langserver
BASEDPYRIGHT_VERSION=1.40.2      # a fourth Python server (PyPI)
TAPLO_VERSION=0.10.0             # taplo-cli with its language server (crates.io: built, ~5 min once; PyPI's has no LSP)
SCIP_GO_VERSION=v0.2.9            # scip-go, under its new home (the sourcegraph/scip-go path is refused)
MCP_INSPECTOR_VERSION=2.12.0      # the MCP Inspector's CLI, a second client for the lspq mcp tests
SCIP_TYPESCRIPT_VERSION=0.4.0    # SCIP indexers for lspq index (rust-analyzer's own scip command is the third)
SCIP_PYTHON_VERSION=0.6.6
TANSTACK_QUERY_VERSION=5.104.5   # two packages of a real monorepo, sources included, for the monorepo tests
VUE_SONNER_VERSION=2.0.9         # real component libraries, their sources as published (npm pack, unpacked to
SVELTE_SONNER_VERSION=1.2.1      # .tools/projects: no install, so no peers): Vue's ships .vue and .ts, Svelte's .svelte
RUNED_VERSION=0.28.0             # svelte-sonner's one dependency, beside svelte in .tools/node_modules
SVELTE_FRENCH_TOAST_VERSION=1.2.0 # a package whose sources are its dist/ (tracked, so sources), unpacked the same way
VITEPRESS_VERSION=1.6.3          # JavaScript with no jsconfig and .vue components, as npm ships it, unpacked the same way
GITHUB_SCHEMA_VERSION=15.25.0    # GitHub's GraphQL schema (@octokit/graphql-schema), for the GraphQL tests, and
GITHUB_SCHEMA_BROKEN=15.26.1     # the release whose schema defines two fields twice (it does not build)
HTTPX_VERSION=0.28.1             # httpx's sources as PyPI ships them (sdist), for cold-against-warm answers of pyright

ROOT="$(CDPATH='' cd -- "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
BIN="$TOOLS/bin"
NODE_BIN="$TOOLS/node_modules/.bin"
STAMPS="$TOOLS/.stamps"
CACHE="${LSPQ_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lspq-tools}"
# taplo's cargo build folder (kept where earlier versions of this script kept it).
CARGO_TARGET="${XDG_CACHE_HOME:-$HOME/.cache}/lspq-cargo-target"

# ---- helpers ----------------------------------------------------------------
CURRENT_STEP="setup"
log() { printf '[install-servers] %s\n' "$*" >&2; }
die() {
  printf '[install-servers] ERROR (%s): %s\n' "$CURRENT_STEP" "$*" >&2
  exit 1
}
need() { command -v "$1" >/dev/null 2>&1 || die "required command '$1' not found on PATH${2:+ ($2)}"; }
# A step is done while its stamp names the same versions and what it made is there.
stamped() { [ "$(cat "$STAMPS/$1" 2>/dev/null)" = "$2" ]; }
stamp() { printf '%s\n' "$2" > "$STAMPS/$1"; }
# A short name for a list of versions: a cache folder per combination.
key_of() { printf '%s' "$*" | sha256sum | cut -c1-16; }
# Puts NEW (a folder or a link) where OLD is, by renames: a server running from OLD meanwhile
# finds the same files there at every moment but between two renames.
swap_in() {
  local new=$1 to=$2
  rm -rf "$to.old"
  if [ -e "$to" ] || [ -L "$to" ]; then mv "$to" "$to.old"; fi
  mv "$new" "$to"
  rm -rf "$to.old"
}
# .tools/DEST as a copy of a cached folder, its files hard links where the file system allows.
place() {
  local from=$1 to=$2
  rm -rf "$to.new"
  cp -al "$from" "$to.new" 2>/dev/null || { rm -rf "$to.new"; cp -a "$from" "$to.new"; } \
    || die "copying $from to $to failed"
  swap_in "$to.new" "$to"
}
# Builds into a temporary folder beside the cache entry and renames it in at the end: an
# interrupted build leaves no half entry that a later run would take as made.
fresh() { local dir=$1; rm -rf "$dir.part"; mkdir -p "$dir.part"; printf '%s\n' "$dir.part"; }
done_as() { rm -rf "$2"; mv "$1" "$2"; }

mkdir -p "$BIN" "$STAMPS" "$CACHE"
START=$SECONDS

# ---- Go: gopls and scip-go --------------------------------------------------------
go_tool() { # name, version, module path: built once per version into the cache, linked into .tools/bin
  local name=$1 version=$2 module=$3 dir="$CACHE/go/$1-$2" part
  CURRENT_STEP="$name $version"
  if stamped "$name" "$version" && [ -x "$BIN/$name" ]; then log "$name $version already installed"; return; fi
  if [ ! -x "$dir/$name" ]; then
    need go "Go 1.26+ is required to build $name $version"
    log "building $name $version (go install; about a minute the first time on this machine)"
    part="$(fresh "$dir")"
    # Outside the repo so no go.mod or go.work interferes; GOTOOLCHAIN=local: no other toolchain downloaded.
    (cd "${TMPDIR:-/tmp}" && GOBIN="$part" GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off go install "$module@$version") \
      || die "go install $module@$version failed"
    done_as "$part" "$dir"
  fi
  "$dir/$name" version >/dev/null 2>&1 || "$dir/$name" --version >/dev/null 2>&1 || die "$dir/$name does not run"
  ln -sfn "$dir/$name" "$BIN/$name"
  stamp "$name" "$version"
}
go_tools() {
  go_tool gopls "$GOPLS_VERSION" golang.org/x/tools/gopls
  go_tool scip-go "$SCIP_GO_VERSION" github.com/scip-code/scip-go/cmd/scip-go
}

# ---- npm: the servers and the tests' npm packages -------------------------------------
NPM_PACKAGES=(
  "pyright@$PYRIGHT_VERSION" "typescript-language-server@$TSLS_VERSION" "typescript@$TYPESCRIPT_VERSION"
  "lefthook@$LEFTHOOK_VERSION" "bash-language-server@$BASH_LS_VERSION" "yaml-language-server@$YAML_LS_VERSION"
  "vscode-langservers-extracted@$LANGSERVERS_EXTRACTED_VERSION" "dockerfile-language-server-nodejs@$DOCKERFILE_LS_VERSION"
  "eslint@$ESLINT_VERSION" "intelephense@$INTELEPHENSE_VERSION" "graphql-language-service-cli@$GRAPHQL_LSP_VERSION"
  "svelte-language-server@$SVELTE_LS_VERSION" "typescript-svelte-plugin@$TS_SVELTE_PLUGIN_VERSION" "svelte@$SVELTE_VERSION"
  "@vue/language-server@$VUE_TOOLS_VERSION" "@vue/typescript-plugin@$VUE_TOOLS_VERSION" "vue@$VUE_VERSION"
  "@tailwindcss/language-server@$TAILWIND_LS_VERSION"
  "@sourcegraph/scip-typescript@$SCIP_TYPESCRIPT_VERSION" "@sourcegraph/scip-python@$SCIP_PYTHON_VERSION"
  "@modelcontextprotocol/inspector@$MCP_INSPECTOR_VERSION"
  "@tanstack/query-persist-client-core@$TANSTACK_QUERY_VERSION" "runed@$RUNED_VERSION"
)
# Each as folder name, then package@version: real libraries' sources as published (npm pack, unpacked: no install).
UNPACKED=(
  "vue-sonner-$VUE_SONNER_VERSION" "vue-sonner@$VUE_SONNER_VERSION"
  "svelte-sonner-$SVELTE_SONNER_VERSION" "svelte-sonner@$SVELTE_SONNER_VERSION"
  "svelte-french-toast-$SVELTE_FRENCH_TOAST_VERSION" "svelte-french-toast@$SVELTE_FRENCH_TOAST_VERSION"
  "vitepress-$VITEPRESS_VERSION" "vitepress@$VITEPRESS_VERSION"
  "github-schema-$GITHUB_SCHEMA_VERSION" "@octokit/graphql-schema@$GITHUB_SCHEMA_VERSION"
  "github-schema-$GITHUB_SCHEMA_BROKEN" "@octokit/graphql-schema@$GITHUB_SCHEMA_BROKEN"
)
npm_install() { # folder, packages...: one npm install (no install scripts: lefthook's would set hooks up around it)
  local dir=$1; shift
  [ -f "$dir/package.json" ] || printf '{ "name": "lspq-tools", "private": true }\n' > "$dir/package.json"
  npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts "$@"
}
npm_tools() {
  need node; need npm
  local version key dir part major folder i
  version="$(node --version) $(uname -m) ${NPM_PACKAGES[*]}"
  CURRENT_STEP="npm packages (pyright, typescript-language-server, typescript 5, and ${#NPM_PACKAGES[@]} in all)"
  if stamped npm "$version" && [ -x "$NODE_BIN/pyright-langserver" ] && [ -f "$TOOLS/node_modules/typescript/lib/tsserver.js" ]; then
    log "npm packages already installed"
  else
    dir="$CACHE/npm/$(key_of "$version")"
    if [ ! -d "$dir/node_modules" ]; then
      log "installing ${#NPM_PACKAGES[@]} npm packages (once on this machine)"
      part="$(fresh "$dir")"
      npm_install "$part" "${NPM_PACKAGES[@]}" || die "npm install of ${NPM_PACKAGES[*]} failed"
      done_as "$part" "$dir"
    fi
    place "$dir/node_modules" "$TOOLS/node_modules"
    [ -x "$NODE_BIN/pyright-langserver" ] || die "pyright-langserver missing after npm install"
    [ -x "$NODE_BIN/typescript-language-server" ] || die "typescript-language-server missing after npm install"
    [ -f "$TOOLS/node_modules/typescript/lib/tsserver.js" ] || die "typescript/lib/tsserver.js missing after npm install"
    stamp npm "$version"
  fi
  # tailwindcss 4 and 3, each in a folder of its own (a project's node_modules): in .tools/node_modules
  # it would mark every test project as using Tailwind.
  for major in 4 3; do
    version="TAILWIND${major}_VERSION"
    version="${!version}"
    CURRENT_STEP="tailwindcss $version"
    folder="$TOOLS/tailwind$major"
    if stamped "tailwind$major" "$version" && [ -d "$folder/node_modules/tailwindcss" ]; then
      log "tailwindcss $version already installed"
      continue
    fi
    dir="$CACHE/tailwind/$version"
    if [ ! -d "$dir/node_modules/tailwindcss" ]; then
      part="$(fresh "$dir")"
      npm_install "$part" "tailwindcss@$version" || die "npm install tailwindcss@$version failed"
      done_as "$part" "$dir"
    fi
    place "$dir" "$folder"
    stamp "tailwind$major" "$version"
  done
  CURRENT_STEP="vue-sonner $VUE_SONNER_VERSION, svelte-sonner $SVELTE_SONNER_VERSION, svelte-french-toast $SVELTE_FRENCH_TOAST_VERSION, GitHub's schema"
  if stamped projects "${UNPACKED[*]}" && [ -d "$TOOLS/projects" ]; then
    log "vue-sonner, svelte-sonner, svelte-french-toast and GitHub's schema already unpacked"
    return
  fi
  dir="$CACHE/projects/$(key_of "${UNPACKED[*]}")"
  if [ ! -d "$dir" ]; then
    part="$(fresh "$dir")"
    for ((i = 0; i < ${#UNPACKED[@]}; i += 2)); do
      local tarball
      tarball="$(cd "$part" && npm pack --silent "${UNPACKED[i + 1]}")" || die "npm pack ${UNPACKED[i + 1]} failed"
      mkdir -p "$part/${UNPACKED[i]}"
      tar xzf "$part/$tarball" -C "$part/${UNPACKED[i]}" --strip-components=1 || die "unpacking $tarball failed"
      rm -f "$part/$tarball"
    done
    done_as "$part" "$dir"
  fi
  place "$dir" "$TOOLS/projects"
  stamp projects "${UNPACKED[*]}"
}

# ---- Python: ruff, pylsp, pre-commit and basedpyright in one venv, jedi in its own, the tests' wheels ----
py_venv() { # stamp name, .tools folder, packages...: a venv made once per versions in the cache, linked
  local name=$1 folder=$2 version dir part; shift 2
  version="$(python3 -c 'import sys; print(sys.version.split()[0])') $*"
  if stamped "$name" "$version" && [ -x "$folder/bin/python" ]; then log "$name already installed"; return; fi
  dir="$CACHE/venv/$name-$(key_of "$version")"
  if [ ! -f "$dir/.complete" ]; then
    log "installing $* into a venv (once on this machine)"
    # Made where it stays (a venv's scripts name its folder, so it is linked, never moved), and
    # marked complete last: an interrupted install is made again.
    rm -rf "$dir"
    python3 -m venv "$dir" || die "python3 -m venv failed"
    "$dir/bin/pip" install -q "$@" || { rm -rf "$dir"; die "pip install $* failed"; }
    touch "$dir/.complete"
  fi
  rm -rf "$folder.new"
  ln -s "$dir" "$folder.new"
  swap_in "$folder.new" "$folder"
  stamp "$name" "$version"
}
python_sources() { # real libraries' sources as PyPI ships them (sdists, unpacked: nothing installed or run)
  CURRENT_STEP="httpx $HTTPX_VERSION sources"
  local dir="$CACHE/sources/httpx-$HTTPX_VERSION" part
  if stamped sources "$HTTPX_VERSION" && [ -f "$TOOLS/sources/httpx-$HTTPX_VERSION/pyproject.toml" ]; then
    log "httpx $HTTPX_VERSION sources already unpacked"
    return
  fi
  if [ ! -f "$dir/httpx-$HTTPX_VERSION/pyproject.toml" ]; then
    part="$(fresh "$dir")"
    "$TOOLS/venv/bin/pip" download -q --no-deps --no-binary :all: -d "$part" "httpx==$HTTPX_VERSION" ||
      die "pip download httpx==$HTTPX_VERSION failed"
    tar xzf "$part/httpx-$HTTPX_VERSION.tar.gz" -C "$part" || die "unpacking httpx $HTTPX_VERSION failed"
    rm -f "$part/httpx-$HTTPX_VERSION.tar.gz"
    done_as "$part" "$dir"
  fi
  place "$dir" "$TOOLS/sources"
  stamp sources "$HTTPX_VERSION"
}
python_tools() {
  need python3 "the Python servers come from PyPI"
  CURRENT_STEP="ruff $RUFF_VERSION, pylsp $PYLSP_VERSION, pre-commit $PRE_COMMIT_VERSION, basedpyright $BASEDPYRIGHT_VERSION"
  # pyflakes only beside pylsp: pycodestyle's style warnings would bury the errors the tests look for.
  py_venv venv "$TOOLS/venv" "ruff==$RUFF_VERSION" "python-lsp-server==$PYLSP_VERSION" "pyflakes==$PYFLAKES_VERSION" \
    "pre-commit==$PRE_COMMIT_VERSION" "basedpyright==$BASEDPYRIGHT_VERSION"
  local tool
  for tool in ruff pylsp pre-commit basedpyright-langserver; do ln -sfn "$TOOLS/venv/bin/$tool" "$BIN/$tool"; done
  CURRENT_STEP="jedi-language-server $JEDI_LS_VERSION"
  # Its own venv: its jedi is not pylsp's.
  py_venv jedi-venv "$TOOLS/jedi-venv" "jedi-language-server==$JEDI_LS_VERSION"
  ln -sfn "$TOOLS/jedi-venv/bin/jedi-language-server" "$BIN/jedi-language-server"
  python_sources
  published_sources
  # pylsp's formatter plugin, in a folder of its own: on PYTHONPATH only where a test gives pylsp a formatter.
  CURRENT_STEP="autopep8 $AUTOPEP8_VERSION"
  local target="$CACHE/pylsp-autopep8/$AUTOPEP8_VERSION" made
  if stamped autopep8 "$AUTOPEP8_VERSION" && [ -f "$TOOLS/pylsp-autopep8/autopep8-$AUTOPEP8_VERSION.dist-info/METADATA" ]; then
    log "autopep8 $AUTOPEP8_VERSION already installed"
  else
    if [ ! -f "$target/autopep8-$AUTOPEP8_VERSION.dist-info/METADATA" ]; then
      made="$(fresh "$target")"
      "$TOOLS/venv/bin/pip" install -q --target "$made" "autopep8==$AUTOPEP8_VERSION" ||
        die "pip install autopep8==$AUTOPEP8_VERSION failed"
      done_as "$made" "$target"
    fi
    place "$target" "$TOOLS/pylsp-autopep8"
    stamp autopep8 "$AUTOPEP8_VERSION"
  fi
  # A test builds a project's .venv offline from these (a package to import, a server installed only there).
  CURRENT_STEP="wheels (six $SIX_VERSION, ruff $RUFF_VERSION)"
  local version="$SIX_VERSION $RUFF_VERSION" dir part
  if stamped wheels "$version" && ls "$TOOLS/wheels"/six-"$SIX_VERSION"-*.whl >/dev/null 2>&1; then
    log "wheels already downloaded"
    return
  fi
  dir="$CACHE/wheels/$(key_of "$version")"
  if ! ls "$dir"/six-"$SIX_VERSION"-*.whl "$dir"/ruff-"$RUFF_VERSION"-*.whl >/dev/null 2>&1; then
    part="$(fresh "$dir")"
    "$TOOLS/venv/bin/pip" download -q --no-deps --only-binary=:all: -d "$part" "six==$SIX_VERSION" "ruff==$RUFF_VERSION" \
      || die "pip download six==$SIX_VERSION ruff==$RUFF_VERSION failed"
    done_as "$part" "$dir"
  fi
  place "$dir" "$TOOLS/wheels"
  stamp wheels "$version"
}

# ---- cargo: taplo (its language server is only in the crates.io build) -------------
cargo_tools() {
  CURRENT_STEP="taplo $TAPLO_VERSION (cargo install, with its lsp feature)"
  local dir="$CACHE/taplo/$TAPLO_VERSION" part
  if stamped taplo "$TAPLO_VERSION" && [ -x "$BIN/taplo" ]; then log "taplo $TAPLO_VERSION already installed"; return; fi
  if [ ! -x "$dir/bin/taplo" ]; then
    need cargo "taplo's language server is built from crates.io"
    log "building taplo $TAPLO_VERSION with cargo (a few minutes, once on this machine)"
    part="$(fresh "$dir")"
    CARGO_TARGET_DIR="$CARGO_TARGET" cargo install --quiet --locked --root "$part" --features lsp "taplo-cli@$TAPLO_VERSION" \
      || die "cargo install taplo-cli@$TAPLO_VERSION failed"
    done_as "$part" "$dir"
  fi
  "$dir/bin/taplo" --version >/dev/null 2>&1 || die "$dir/bin/taplo does not run"
  ln -sfn "$dir/bin/taplo" "$BIN/taplo"
  stamp taplo "$TAPLO_VERSION"
}

# ---- the system's: clangd, zsh, fish, qemu-user (checked: install-system.sh installs them), rust-analyzer (rustup), PHP sources ----
find_clangd() { # the real clangd binary outside .tools, or nothing
  local c
  # /usr/bin/clangd first (Debian's default), else the newest /usr/bin/clangd-N.
  for c in /usr/bin/clangd $(printf '%s\n' /usr/bin/clangd-[0-9]* | sort -t- -k2 -n -r); do
    [ -x "$c" ] && { readlink -f "$c"; return 0; }
  done
  return 0
}
clangd_tool() {
  CURRENT_STEP="clangd (apt package $CLANGD_APT_PACKAGE)"
  local real
  real="$(find_clangd)"
  # A system package: installed by scripts/install-system.sh, never here (npm test changes no system).
  [ -n "$real" ] || die "clangd is not installed (Debian's $CLANGD_APT_PACKAGE); install the system packages the tests need with: bash scripts/install-system.sh"
  [ "$(readlink "$BIN/clangd" 2>/dev/null || true)" = "$real" ] || ln -sfn "$real" "$BIN/clangd"
  "$BIN/clangd" --version >/dev/null 2>&1 || die "$BIN/clangd -> $real does not run"
  log "clangd: $BIN/clangd -> $real"
}
# Preferred: the rustup component (prebuilt, ~10 s). Fallback when rustup cannot download it: build
# ra_ap_rust-analyzer (the rust-analyzer crate published on crates.io, with a `rust-analyzer` binary);
# it needs the nightly toolchain (0.0.349 uses a feature not yet stable in rustc 1.95) and ~8-12 minutes
# on 2 cores, once on this machine.
RA_CRATE_VERSION=0.0.349
runs() { [ -x "$1" ] && "$1" --version >/dev/null 2>&1; }
ra_real() { # path of the real rust-analyzer binary (not the rustup proxy), or nothing
  local p
  p="$(rustup which --toolchain "$RUST_TOOLCHAIN" rust-analyzer 2>/dev/null)" || return 0
  if runs "$p"; then printf '%s\n' "$p"; fi
  return 0
}
ra_src_ok() { [ -d "$(rustc +"$RUST_TOOLCHAIN" --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library" ]; }
rust_analyzer_tool() {
  CURRENT_STEP="rust-analyzer (rustup component, toolchain $RUST_TOOLCHAIN)"
  need rustup "rust-analyzer is installed as a rustup component"
  local built="$CACHE/rust-analyzer/$RA_CRATE_VERSION/bin/rust-analyzer" real part
  real="$(ra_real)"
  if [ -n "$real" ] && ra_src_ok; then
    :
  elif runs "$built"; then
    real="$built"    # built from crates.io by an earlier run on this machine
  else
    log "installing rust-analyzer + rust-src with rustup (toolchain $RUST_TOOLCHAIN)"
    if rustup component add --toolchain "$RUST_TOOLCHAIN" rust-analyzer rust-src; then
      real="$(ra_real)"
      [ -n "$real" ] || die "rustup reports rust-analyzer installed but '$(rustup which --toolchain "$RUST_TOOLCHAIN" rust-analyzer 2>&1)' does not run"
      ra_src_ok || die "rust-src component missing after rustup component add"
    else
      log "WARNING: 'rustup component add rust-analyzer rust-src' failed (rustup's download host unreachable?)"
      CURRENT_STEP="rust-analyzer (cargo install ra_ap_rust-analyzer@$RA_CRATE_VERSION, nightly)"
      rustc +nightly --version >/dev/null 2>&1 \
        || die "rustup could not install rust-analyzer and no nightly toolchain is installed to build ra_ap_rust-analyzer@$RA_CRATE_VERSION from crates.io. Rust tests cannot run without rust-analyzer."
      log "building rust-analyzer from crates.io (ra_ap_rust-analyzer $RA_CRATE_VERSION, nightly); this takes ~8-12 min"
      part="$(fresh "$CACHE/rust-analyzer/$RA_CRATE_VERSION")"
      CARGO_TARGET_DIR="$CACHE/rust-analyzer-build" \
        cargo +nightly install --locked --quiet ra_ap_rust-analyzer --version "$RA_CRATE_VERSION" --root "$part" \
        || die "cargo +nightly install ra_ap_rust-analyzer@$RA_CRATE_VERSION failed. Rust tests cannot run without rust-analyzer."
      rm -rf "$CACHE/rust-analyzer-build"
      done_as "$part" "$CACHE/rust-analyzer/$RA_CRATE_VERSION"
      runs "$built" || die "$built was built but does not run"
      real="$built"
    fi
  fi
  # The real binary, not the rustup proxy, so a rust-toolchain file in a fixture
  # can't make the proxy pick a toolchain without the component.
  [ "$(readlink "$BIN/rust-analyzer" 2>/dev/null || true)" = "$real" ] || ln -sfn "$real" "$BIN/rust-analyzer"
  log "rust-analyzer: $BIN/rust-analyzer -> $real"
}
shells_tool() {
  CURRENT_STEP="bubblewrap, zsh, fish, qemu-user and libc6-arm64-cross (system packages)"
  local missing=()
  command -v bwrap >/dev/null || missing+=(bubblewrap)
  command -v zsh >/dev/null || missing+=(zsh)
  command -v fish >/dev/null || missing+=(fish)
  command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
  [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || missing+=(libc6-arm64-cross)
  [ "${#missing[@]}" -eq 0 ] || die "missing system packages: ${missing[*]}; install them with: bash scripts/install-system.sh (it names each, and installs nothing else)"
  log "bubblewrap, zsh, fish and qemu-user installed"
}
php_sources() { # Debian's php-monolog and php-psr-log, unpacked: a real PHP library's sources (no PHP runs)
  CURRENT_STEP="php-monolog $PHP_MONOLOG_DEB and php-psr-log $PHP_PSR_LOG_DEB sources"
  local version="$PHP_MONOLOG_DEB $PHP_PSR_LOG_DEB" dir part debs deb
  if stamped php-src "$version" && [ -d "$TOOLS/php-src" ]; then log "php-monolog and php-psr-log sources already unpacked"; return; fi
  dir="$CACHE/php-src/$(key_of "$version")"
  if [ ! -d "$dir" ]; then
    need apt-get "php-monolog's sources come from Debian's packages"
    need dpkg-deb "php-monolog's sources come from Debian's packages"
    debs="$(mktemp -d)"
    fetch_debs() { (cd "$debs" && apt-get download -qq "php-monolog=$PHP_MONOLOG_DEB" "php-psr-log=$PHP_PSR_LOG_DEB" 2>/dev/null); }
    # apt-get download needs no root; stale package lists are refreshed by scripts/install-system.sh's update.
    fetch_debs || die "apt-get download php-monolog=$PHP_MONOLOG_DEB php-psr-log=$PHP_PSR_LOG_DEB failed (package lists too old? run: bash scripts/install-system.sh, or apt-get update as root)"
    for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$debs/x" || die "dpkg-deb -x $deb failed"; done
    part="$(fresh "$dir")"
    cp -r "$debs/x/usr/share/php/." "$part/" || die "the PHP sources were not in the packages"
    rm -rf "$debs"
    done_as "$part" "$dir"
  fi
  place "$dir" "$TOOLS/php-src"
  stamp php-src "$version"
}
# apt-get and dpkg take one lock: these run one after the other.
system_tools() {
  clangd_tool
  rust_analyzer_tool
  shells_tool
  php_sources
}

# ---- published sources: real projects the tests and benchmarks ask questions of ----
# Each as its registry publishes it, unpacked, nothing run: immer's and @tanstack/query-core's TypeScript from
# npm, gorilla/mux's and golang.org/x/sync's Go from the module proxy, attrs's Python (with its .pyi stubs) from
# PyPI, anyhow's Rust from crates.io.
IMMER_VERSION=11.2.10
GORILLA_MUX_VERSION=v1.8.1
QUERY_CORE_VERSION=5.108.4
X_SYNC_VERSION=v0.10.0
ATTRS_VERSION=25.3.0
ANYHOW_VERSION=1.0.98
npm_sources() { # part, package, version, folder: the package's tarball unpacked into part/folder
  local tarball
  tarball="$(cd "$1" && npm pack --silent "$2@$3")" || die "npm pack $2@$3 failed"
  mkdir -p "$1/$4"
  tar xzf "$1/$tarball" -C "$1/$4" --strip-components=1 || die "unpacking $tarball failed"
  rm -f "$1/$tarball"
}
go_sources() { # part, module, version, folder
  local module
  # The module cache's copy is read-only: copied out, made writable, so a test's copy of it can be edited.
  module="$(cd "${TMPDIR:-/tmp}" && GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off \
    go mod download -json "$2@$3" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')" || die "go mod download $2@$3 failed"
  [ -f "$module/go.mod" ] || die "go mod download $2@$3 gave no module folder"
  cp -r "$module" "$1/$4" && chmod -R u+w "$1/$4" || die "copying $2 out of the module cache failed"
}
published_sources() {
  local version="immer@$IMMER_VERSION github.com/gorilla/mux@$GORILLA_MUX_VERSION @tanstack/query-core@$QUERY_CORE_VERSION"
  version="$version golang.org/x/sync@$X_SYNC_VERSION attrs==$ATTRS_VERSION anyhow@$ANYHOW_VERSION"
  local dir part
  CURRENT_STEP="published sources ($version)"
  if stamped published "$version" && [ -f "$TOOLS/published/immer-$IMMER_VERSION/src/immer.ts" ] \
    && [ -f "$TOOLS/published/anyhow-$ANYHOW_VERSION/Cargo.toml" ]; then
    log "published sources already unpacked"
    return
  fi
  dir="$CACHE/published/$(key_of "$version")"
  if [ ! -d "$dir" ]; then
    need npm "immer's and query-core's sources come from npm"
    need go "gorilla/mux's and x/sync's sources come from the Go module proxy"
    need curl "anyhow's sources come from crates.io"
    [ -x "$TOOLS/venv/bin/pip" ] || die "attrs's sources come from PyPI with the tools' venv: its python step must run first"
    part="$(fresh "$dir")"
    npm_sources "$part" immer "$IMMER_VERSION" "immer-$IMMER_VERSION"
    npm_sources "$part" @tanstack/query-core "$QUERY_CORE_VERSION" "query-core-$QUERY_CORE_VERSION"
    go_sources "$part" github.com/gorilla/mux "$GORILLA_MUX_VERSION" "mux-$GORILLA_MUX_VERSION"
    go_sources "$part" golang.org/x/sync "$X_SYNC_VERSION" "sync-$X_SYNC_VERSION"
    "$TOOLS/venv/bin/pip" download -q --no-deps --no-binary :all: -d "$part" "attrs==$ATTRS_VERSION" ||
      die "pip download attrs==$ATTRS_VERSION failed"
    tar xzf "$part/attrs-$ATTRS_VERSION.tar.gz" -C "$part" && rm -f "$part/attrs-$ATTRS_VERSION.tar.gz" ||
      die "unpacking attrs $ATTRS_VERSION failed"
    curl -sSfL -o "$part/anyhow.crate" "https://static.crates.io/crates/anyhow/anyhow-$ANYHOW_VERSION.crate" ||
      die "downloading anyhow $ANYHOW_VERSION from crates.io failed"
    tar xzf "$part/anyhow.crate" -C "$part" && rm -f "$part/anyhow.crate" || die "unpacking anyhow $ANYHOW_VERSION failed"
    done_as "$part" "$dir"
  fi
  place "$dir" "$TOOLS/published"
  stamp published "$version"
}

# ---- run the groups at once -------------------------------------------------------
LOGS="$(mktemp -d)"
trap 'rm -rf "$LOGS"' EXIT
PIDS=()
NAMES=()
group() { # name, function: in the background, its output in its own log
  local name=$1 fn=$2
  (
    trap 'rc=$?; [ "$rc" -eq 0 ] || printf "[install-servers] FAILED while installing: %s (exit %s)\n" "$CURRENT_STEP" "$rc" >&2' EXIT
    "$fn"
  ) >"$LOGS/$name.log" 2>&1 &
  PIDS+=("$!")
  NAMES+=("$name")
}
group system system_tools
group go go_tools
group npm npm_tools
group python python_tools
group cargo cargo_tools
FAILED=()
for i in "${!PIDS[@]}"; do
  wait "${PIDS[i]}" || FAILED+=("${NAMES[i]}")
  cat "$LOGS/${NAMES[i]}.log" >&2
done
CURRENT_STEP="final check"
if [ "${#FAILED[@]}" -gt 0 ]; then
  log "FAILED: the ${FAILED[*]} step(s), above; what else was installed stays for the next run"
  exit 1
fi

# ---- final check: each tool runs and says its version (at once, printed in order) ----
export PATH="$BIN:$NODE_BIN:$PATH"
# The native binaries run; the Node and Python packages are read by their interpreter, one for all
# (jedi-language-server --version alone took 3.5 s).
npm_versions() {
  node -e 'for (const p of process.argv.slice(2)) console.log(p, require(`${process.argv[1]}/${p}/package.json`).version)' \
    "$TOOLS/node_modules" "$@"
}
venv_versions() { # venv, packages...
  local venv=$1; shift
  "$venv/bin/python" -c 'import sys, importlib.metadata as m; [print(p, m.version(p)) for p in sys.argv[1:]]' "$@"
}
CHECKS=(
  "gopls version"
  "clangd --version"
  "rust-analyzer --version"
  "ruff --version"
  "taplo --version"
  "scip-go --version"
  "lefthook version"
  "zsh --version"
  "fish --version"
  "qemu-aarch64 --version"
  "venv_versions $TOOLS/venv python-lsp-server pre-commit basedpyright"
  "venv_versions $TOOLS/jedi-venv jedi-language-server"
  "npm_versions pyright typescript-language-server typescript bash-language-server yaml-language-server vscode-langservers-extracted dockerfile-language-server-nodejs graphql-language-service-cli svelte-language-server intelephense @tailwindcss/language-server @sourcegraph/scip-typescript @sourcegraph/scip-python @modelcontextprotocol/inspector"
)
for i in "${!CHECKS[@]}"; do
  # shellcheck disable=SC2086 # the command's words
  (${CHECKS[i]} >"$LOGS/check-$i" 2>&1; echo $? >"$LOGS/check-$i.rc") &
done
wait
log "installed ($(( SECONDS - START ))s):"
for i in "${!CHECKS[@]}"; do
  out="$(cat "$LOGS/check-$i")"
  [ "$(cat "$LOGS/check-$i.rc")" = 0 ] || die "${CHECKS[i]%% *} does not run: ${CHECKS[i]} (output: $out)"
  [ -n "$out" ] || die "${CHECKS[i]} printed no version"
  case "${CHECKS[i]}" in
    npm_versions* | venv_versions*)
      while read -r package version; do printf '  %-34s %s\n' "$package" "$version" >&2; done <<<"$out" ;;
    *) printf '  %-34s %s\n' "${CHECKS[i]%% *}" "${out%%$'\n'*}" >&2 ;;
  esac
done
log "done; put them on PATH with: source scripts/env.sh"
