#!/usr/bin/env bash
# Install every language server the lspq test suite needs.
#
#   bash scripts/install-servers.sh      # then: source scripts/env.sh
#
# Installs into <repo>/.tools (gitignored) where possible:
#   .tools/bin/gopls                        go install (pinned)
#   .tools/node_modules/.bin/pyright-langserver, typescript-language-server,
#   .tools/node_modules/typescript (5.x, ships lib/tsserver.js)   npm (pinned)
#   .tools/bin/clangd -> Debian's clangd    apt-get install clangd
#   .tools/bin/rust-analyzer -> rustup's    rustup component add rust-analyzer rust-src
#                                           (fallback: cargo +nightly install ra_ap_rust-analyzer)
#
# Idempotent: each step checks what is already there and skips itself, so a
# second run takes a second or two. Any server that cannot be installed makes
# the script exit non-zero with a message naming it.
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
GITHUB_SCHEMA_VERSION=15.25.0    # GitHub's GraphQL schema (@octokit/graphql-schema), for the GraphQL tests, and
GITHUB_SCHEMA_BROKEN=15.26.1     # the release whose schema defines two fields twice (it does not build)

ROOT="$(CDPATH='' cd -- "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
BIN="$TOOLS/bin"
NODE_BIN="$TOOLS/node_modules/.bin"

# ---- helpers ----------------------------------------------------------------
CURRENT_STEP="setup"
log() { printf '[install-servers] %s\n' "$*" >&2; }
die() {
  printf '[install-servers] ERROR (%s): %s\n' "$CURRENT_STEP" "$*" >&2
  exit 1
}
on_exit() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    printf '[install-servers] FAILED while installing: %s (exit %s)\n' "$CURRENT_STEP" "$rc" >&2
  fi
}
trap on_exit EXIT
need() { command -v "$1" >/dev/null 2>&1 || die "required command '$1' not found on PATH${2:+ ($2)}"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root (or sudo) to run: $*"
  fi
}

mkdir -p "$BIN"
START=$SECONDS

# ---- gopls ------------------------------------------------------------------
CURRENT_STEP="gopls $GOPLS_VERSION"
gopls_version() { # first line of `gopls version`, e.g. "golang.org/x/tools/gopls v0.23.0"
  local out
  [ -x "$BIN/gopls" ] && out="$("$BIN/gopls" version 2>/dev/null)" && printf '%s\n' "${out%%$'\n'*}"
  return 0
}
if [ "$(gopls_version)" = "golang.org/x/tools/gopls ${GOPLS_VERSION}" ]; then
  log "gopls $GOPLS_VERSION already installed"
else
  need go "Go 1.26+ is required to build gopls $GOPLS_VERSION"
  log "installing gopls $GOPLS_VERSION (go install; takes ~1-2 min the first time)"
  # Build outside the repo so no go.mod / go.work interferes; GOTOOLCHAIN=local
  # stops the go command from trying to download another toolchain.
  (cd "${TMPDIR:-/tmp}" && GOBIN="$BIN" GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off \
     go install "golang.org/x/tools/gopls@${GOPLS_VERSION}") \
    || die "go install golang.org/x/tools/gopls@${GOPLS_VERSION} failed"
  "$BIN/gopls" version >/dev/null 2>&1 || die "$BIN/gopls was built but does not run"
fi

# ---- scip-go (the Go SCIP indexer) -------------------------------------------
CURRENT_STEP="scip-go $SCIP_GO_VERSION"
if [ -x "$BIN/scip-go" ] && [ "v$("$BIN/scip-go" --version 2>/dev/null)" = "$SCIP_GO_VERSION" ]; then
  log "scip-go $SCIP_GO_VERSION already installed"
else
  need go "Go 1.26+ is required to build scip-go $SCIP_GO_VERSION"
  log "installing scip-go $SCIP_GO_VERSION (go install)"
  (cd "${TMPDIR:-/tmp}" && GOBIN="$BIN" GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off \
     go install "github.com/scip-code/scip-go/cmd/scip-go@${SCIP_GO_VERSION}") \
    || die "go install github.com/scip-code/scip-go/cmd/scip-go@${SCIP_GO_VERSION} failed"
fi

# ---- npm servers: pyright, typescript-language-server, typescript -----------
CURRENT_STEP="npm packages (pyright $PYRIGHT_VERSION, typescript-language-server $TSLS_VERSION, typescript $TYPESCRIPT_VERSION)"
npm_version() { # prints the installed version of package $1 in .tools, or nothing
  local pj="$TOOLS/node_modules/$1/package.json"
  if [ -f "$pj" ]; then node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true; fi
}
if [ "$(npm_version pyright)" = "$PYRIGHT_VERSION" ] \
   && [ "$(npm_version typescript-language-server)" = "$TSLS_VERSION" ] \
   && [ "$(npm_version typescript)" = "$TYPESCRIPT_VERSION" ] \
   && [ -x "$NODE_BIN/pyright-langserver" ] && [ -x "$NODE_BIN/typescript-language-server" ] \
   && [ -f "$TOOLS/node_modules/typescript/lib/tsserver.js" ]; then
  log "npm servers already installed"
else
  need node; need npm
  log "installing npm servers into .tools"
  # A package.json in .tools keeps npm from walking up to the repo's own one.
  [ -f "$TOOLS/package.json" ] || printf '{ "name": "lspq-tools", "private": true }\n' > "$TOOLS/package.json"
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error \
    "pyright@${PYRIGHT_VERSION}" \
    "typescript-language-server@${TSLS_VERSION}" \
    "typescript@${TYPESCRIPT_VERSION}" \
    || die "npm install of pyright/typescript-language-server/typescript into $TOOLS failed"
  [ -x "$NODE_BIN/pyright-langserver" ] || die "pyright-langserver missing after npm install"
  [ -x "$NODE_BIN/typescript-language-server" ] || die "typescript-language-server missing after npm install"
  [ -f "$TOOLS/node_modules/typescript/lib/tsserver.js" ] || die "typescript/lib/tsserver.js missing after npm install"
fi

# ---- ruff (PyPI, in its own venv) ------------------------------------------------
CURRENT_STEP="ruff $RUFF_VERSION"
if [ -x "$BIN/ruff" ] && [ "$("$BIN/ruff" --version 2>/dev/null)" = "ruff $RUFF_VERSION" ]; then
  log "ruff $RUFF_VERSION already installed"
else
  need python3 "ruff comes from PyPI"
  log "installing ruff $RUFF_VERSION into .tools/venv"
  python3 -m venv "$TOOLS/venv" || die "python3 -m venv failed"
  "$TOOLS/venv/bin/pip" install -q "ruff==$RUFF_VERSION" || die "pip install ruff==$RUFF_VERSION failed"
  ln -sfn "$TOOLS/venv/bin/ruff" "$BIN/ruff"
fi

# ---- pylsp (PyPI, in the same venv) ------------------------------------------
CURRENT_STEP="pylsp $PYLSP_VERSION"
if [ -x "$BIN/pylsp" ] && [ "$("$BIN/pylsp" --version 2>/dev/null)" = "pylsp v$PYLSP_VERSION" ]; then
  log "pylsp $PYLSP_VERSION already installed"
else
  need python3 "pylsp comes from PyPI"
  log "installing pylsp $PYLSP_VERSION into .tools/venv"
  [ -x "$TOOLS/venv/bin/pip" ] || python3 -m venv "$TOOLS/venv" || die "python3 -m venv failed"
  # pyflakes only: pycodestyle's style warnings would bury the errors the tests look for.
  "$TOOLS/venv/bin/pip" install -q "python-lsp-server==$PYLSP_VERSION" "pyflakes==$PYFLAKES_VERSION" \
    || die "pip install python-lsp-server==$PYLSP_VERSION failed"
  ln -sfn "$TOOLS/venv/bin/pylsp" "$BIN/pylsp"
fi

# ---- autopep8 for pylsp (PyPI, a folder of its own) ---------------------------
CURRENT_STEP="autopep8 $AUTOPEP8_VERSION"
if [ -f "$TOOLS/pylsp-autopep8/autopep8-$AUTOPEP8_VERSION.dist-info/METADATA" ]; then
  log "autopep8 $AUTOPEP8_VERSION already installed"
else
  log "installing autopep8 $AUTOPEP8_VERSION into .tools/pylsp-autopep8"
  rm -rf "$TOOLS/pylsp-autopep8"
  "$TOOLS/venv/bin/pip" install -q --target "$TOOLS/pylsp-autopep8" "autopep8==$AUTOPEP8_VERSION" \
    || die "pip install autopep8==$AUTOPEP8_VERSION failed"
fi

# ---- jedi-language-server (PyPI, in a venv of its own) ------------------------
CURRENT_STEP="jedi-language-server $JEDI_LS_VERSION"
if [ -x "$BIN/jedi-language-server" ] && [ "$("$BIN/jedi-language-server" --version 2>/dev/null)" = "$JEDI_LS_VERSION" ]; then
  log "jedi-language-server $JEDI_LS_VERSION already installed"
else
  need python3 "jedi-language-server comes from PyPI"
  log "installing jedi-language-server $JEDI_LS_VERSION into .tools/jedi-venv"
  [ -x "$TOOLS/jedi-venv/bin/pip" ] || python3 -m venv "$TOOLS/jedi-venv" || die "python3 -m venv failed"
  "$TOOLS/jedi-venv/bin/pip" install -q "jedi-language-server==$JEDI_LS_VERSION" \
    || die "pip install jedi-language-server==$JEDI_LS_VERSION failed"
  ln -sfn "$TOOLS/jedi-venv/bin/jedi-language-server" "$BIN/jedi-language-server"
fi

# ---- clangd -----------------------------------------------------------------
CURRENT_STEP="clangd (apt package $CLANGD_APT_PACKAGE)"
find_clangd() { # the real clangd binary outside .tools, or nothing
  local c
  # /usr/bin/clangd first (Debian's default), else the newest /usr/bin/clangd-N.
  for c in /usr/bin/clangd $(printf '%s\n' /usr/bin/clangd-[0-9]* | sort -t- -k2 -n -r); do
    [ -x "$c" ] && { readlink -f "$c"; return 0; }
  done
  return 0
}
CLANGD_REAL="$(find_clangd)"
if [ -z "$CLANGD_REAL" ]; then
  need apt-get "clangd comes from Debian's packages"
  log "installing clangd with apt-get (after apt-get update)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    || die "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$CLANGD_APT_PACKAGE" >/dev/null \
    || die "apt-get install $CLANGD_APT_PACKAGE failed"
  CLANGD_REAL="$(find_clangd)"
  [ -n "$CLANGD_REAL" ] || die "apt-get installed $CLANGD_APT_PACKAGE but no clangd binary was found in /usr/bin"
fi
if [ "$(readlink "$BIN/clangd" 2>/dev/null || true)" != "$CLANGD_REAL" ]; then
  ln -sfn "$CLANGD_REAL" "$BIN/clangd"
fi
"$BIN/clangd" --version >/dev/null 2>&1 || die "$BIN/clangd -> $CLANGD_REAL does not run"
log "clangd: $BIN/clangd -> $CLANGD_REAL"

# ---- rust-analyzer ----------------------------------------------------------
# Preferred: the rustup component (prebuilt, ~10 s). Fallback when rustup
# cannot download it: build ra_ap_rust-analyzer (the rust-analyzer crate that
# is published on crates.io, with a `rust-analyzer` binary) into .tools; it
# needs the nightly toolchain (0.0.349 uses a feature not yet stable in rustc
# 1.95) and ~8-12 minutes on 2 cores.
CURRENT_STEP="rust-analyzer (rustup component, toolchain $RUST_TOOLCHAIN)"
need rustup "rust-analyzer is installed as a rustup component"
RA_CRATE_VERSION=0.0.349
RA_BUILT="$TOOLS/rust-analyzer/bin/rust-analyzer"
runs() { [ -x "$1" ] && "$1" --version >/dev/null 2>&1; }
ra_real() { # path of the real rust-analyzer binary (not the rustup proxy), or nothing
  local p
  p="$(rustup which --toolchain "$RUST_TOOLCHAIN" rust-analyzer 2>/dev/null)" || return 0
  if runs "$p"; then printf '%s\n' "$p"; fi
  return 0
}
ra_src_ok() {
  [ -d "$(rustc +"$RUST_TOOLCHAIN" --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library" ]
}
ra_build_from_crates_io() {
  CURRENT_STEP="rust-analyzer (cargo install ra_ap_rust-analyzer@$RA_CRATE_VERSION, nightly)"
  rustc +nightly --version >/dev/null 2>&1 \
    || die "rustup could not install rust-analyzer and no nightly toolchain is installed to build ra_ap_rust-analyzer@$RA_CRATE_VERSION from crates.io. Rust tests cannot run without rust-analyzer."
  log "building rust-analyzer from crates.io (ra_ap_rust-analyzer $RA_CRATE_VERSION, nightly); this takes ~8-12 min"
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$TOOLS/rust-analyzer-build}" \
    cargo +nightly install --locked --quiet ra_ap_rust-analyzer --version "$RA_CRATE_VERSION" --root "$TOOLS/rust-analyzer" \
    || die "cargo +nightly install ra_ap_rust-analyzer@$RA_CRATE_VERSION failed. Rust tests cannot run without rust-analyzer."
  rm -rf "$TOOLS/rust-analyzer-build"
  runs "$RA_BUILT" || die "$RA_BUILT was built but does not run"
}
RA_REAL="$(ra_real)"
if [ -n "$RA_REAL" ] && ra_src_ok; then
  :
elif runs "$RA_BUILT"; then
  RA_REAL="$RA_BUILT"    # built from crates.io by an earlier run
else
  log "installing rust-analyzer + rust-src with rustup (toolchain $RUST_TOOLCHAIN)"
  if rustup component add --toolchain "$RUST_TOOLCHAIN" rust-analyzer rust-src; then
    RA_REAL="$(ra_real)"
    [ -n "$RA_REAL" ] || die "rustup reports rust-analyzer installed but '$(rustup which --toolchain "$RUST_TOOLCHAIN" rust-analyzer 2>&1)' does not run"
    ra_src_ok || die "rust-src component missing after rustup component add"
  else
    log "WARNING: 'rustup component add rust-analyzer rust-src' failed (rustup's download host unreachable?)"
    ra_build_from_crates_io
    RA_REAL="$RA_BUILT"
  fi
fi
# Link the real binary, not the rustup proxy, so a rust-toolchain file in a
# fixture can't make the proxy pick a toolchain without the component.
if [ "$(readlink "$BIN/rust-analyzer" 2>/dev/null || true)" != "$RA_REAL" ]; then
  ln -sfn "$RA_REAL" "$BIN/rust-analyzer"
fi
log "rust-analyzer: $BIN/rust-analyzer -> $RA_REAL"

# ---- wheels for the tests' own Python environments ----------------------------
# A test builds a project's .venv offline from these (a package to import,
# and a server installed only there), in under a second.
CURRENT_STEP="wheels (six $SIX_VERSION, ruff $RUFF_VERSION)"
WHEELS="$TOOLS/wheels"
if ls "$WHEELS"/six-"$SIX_VERSION"-*.whl "$WHEELS"/ruff-"$RUFF_VERSION"-*.whl >/dev/null 2>&1; then
  log "wheels already downloaded"
else
  [ -x "$TOOLS/venv/bin/pip" ] || die "the .tools venv is missing (the ruff step makes it)"
  "$TOOLS/venv/bin/pip" download -q --no-deps --only-binary=:all: -d "$WHEELS" "six==$SIX_VERSION" "ruff==$RUFF_VERSION" \
    || die "pip download six==$SIX_VERSION ruff==$RUFF_VERSION failed"
fi

# ---- hook runners: pre-commit (PyPI) and lefthook (npm) ---------------------------
CURRENT_STEP="pre-commit $PRE_COMMIT_VERSION"
if [ -x "$BIN/pre-commit" ] && [ "$("$BIN/pre-commit" --version 2>/dev/null)" = "pre-commit $PRE_COMMIT_VERSION" ]; then
  log "pre-commit $PRE_COMMIT_VERSION already installed"
else
  "$TOOLS/venv/bin/pip" install -q "pre-commit==$PRE_COMMIT_VERSION" || die "pip install pre-commit==$PRE_COMMIT_VERSION failed"
  ln -sfn "$TOOLS/venv/bin/pre-commit" "$BIN/pre-commit"
fi
CURRENT_STEP="lefthook $LEFTHOOK_VERSION"
if [ "$(npm_version lefthook)" = "$LEFTHOOK_VERSION" ] && [ -x "$NODE_BIN/lefthook" ]; then
  log "lefthook $LEFTHOOK_VERSION already installed"
else
  # --ignore-scripts: its postinstall would install hooks into the repository around .tools.
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "lefthook@${LEFTHOOK_VERSION}" || die "npm install lefthook@${LEFTHOOK_VERSION} failed"
fi

# ---- more servers: bash, YAML, JSON, CSS, HTML, Dockerfile (npm), basedpyright (PyPI) ----
CURRENT_STEP="bash, YAML, JSON, CSS, HTML and Dockerfile servers (npm)"
if [ "$(npm_version bash-language-server)" = "$BASH_LS_VERSION" ] \
   && [ "$(npm_version yaml-language-server)" = "$YAML_LS_VERSION" ] \
   && [ "$(npm_version vscode-langservers-extracted)" = "$LANGSERVERS_EXTRACTED_VERSION" ] \
   && [ "$(npm_version dockerfile-language-server-nodejs)" = "$DOCKERFILE_LS_VERSION" ] \
   && [ "$(npm_version eslint)" = "$ESLINT_VERSION" ] \
   && [ "$(npm_version intelephense)" = "$INTELEPHENSE_VERSION" ] \
   && [ "$(npm_version graphql-language-service-cli)" = "$GRAPHQL_LSP_VERSION" ] \
   && [ "$(npm_version svelte-language-server)" = "$SVELTE_LS_VERSION" ] \
   && [ "$(npm_version typescript-svelte-plugin)" = "$TS_SVELTE_PLUGIN_VERSION" ] \
   && [ "$(npm_version svelte)" = "$SVELTE_VERSION" ] \
   && [ "$(npm_version @vue/typescript-plugin)" = "$VUE_TOOLS_VERSION" ] \
   && [ "$(npm_version @vue/language-server)" = "$VUE_TOOLS_VERSION" ] \
   && [ "$(npm_version vue)" = "$VUE_VERSION" ]; then
  log "bash, YAML, JSON, CSS, HTML and Dockerfile servers already installed"
else
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "bash-language-server@${BASH_LS_VERSION}" "yaml-language-server@${YAML_LS_VERSION}" \
    "vscode-langservers-extracted@${LANGSERVERS_EXTRACTED_VERSION}" \
    "dockerfile-language-server-nodejs@${DOCKERFILE_LS_VERSION}" "eslint@${ESLINT_VERSION}" \
    "intelephense@${INTELEPHENSE_VERSION}" "graphql-language-service-cli@${GRAPHQL_LSP_VERSION}" \
    "svelte-language-server@${SVELTE_LS_VERSION}" "typescript-svelte-plugin@${TS_SVELTE_PLUGIN_VERSION}" \
    "svelte@${SVELTE_VERSION}" "@vue/language-server@${VUE_TOOLS_VERSION}" \
    "@vue/typescript-plugin@${VUE_TOOLS_VERSION}" "vue@${VUE_VERSION}" \
    || die "npm install of the bash/YAML/JSON/CSS/HTML/Dockerfile, PHP, GraphQL, Svelte and Vue servers and eslint failed"
fi

# ---- Tailwind CSS: its server, and tailwindcss 4 and 3 as two projects install them ----
CURRENT_STEP="@tailwindcss/language-server $TAILWIND_LS_VERSION, tailwindcss $TAILWIND4_VERSION and $TAILWIND3_VERSION"
tailwind_at() { # prints the tailwindcss version installed under .tools/$1, or nothing
  local pj="$TOOLS/$1/node_modules/tailwindcss/package.json"
  if [ -f "$pj" ]; then node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true; fi
}
if [ "$(npm_version @tailwindcss/language-server)" = "$TAILWIND_LS_VERSION" ] \
   && [ "$(tailwind_at tailwind4)" = "$TAILWIND4_VERSION" ] && [ "$(tailwind_at tailwind3)" = "$TAILWIND3_VERSION" ]; then
  log "Tailwind CSS's server and tailwindcss already installed"
else
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "@tailwindcss/language-server@${TAILWIND_LS_VERSION}" \
    || die "npm install @tailwindcss/language-server@${TAILWIND_LS_VERSION} failed"
  for major in 4 3; do
    version="TAILWIND${major}_VERSION"
    mkdir -p "$TOOLS/tailwind$major"
    [ -f "$TOOLS/tailwind$major/package.json" ] || echo '{ "private": true }' > "$TOOLS/tailwind$major/package.json"
    npm install --prefix "$TOOLS/tailwind$major" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
      "tailwindcss@${!version}" || die "npm install tailwindcss@${!version} failed"
  done
fi

# ---- PHP sources for the intelephense tests (Debian packages, unpacked: no PHP runs) ----
CURRENT_STEP="php-monolog $PHP_MONOLOG_DEB and php-psr-log $PHP_PSR_LOG_DEB sources"
PHP_SRC="$TOOLS/php-src"
if [ -f "$PHP_SRC/.versions" ] && [ "$(cat "$PHP_SRC/.versions")" = "$PHP_MONOLOG_DEB $PHP_PSR_LOG_DEB" ]; then
  log "php-monolog and php-psr-log sources already unpacked"
else
  need apt-get "php-monolog's sources come from Debian's packages"
  need dpkg-deb "php-monolog's sources come from Debian's packages"
  debs="$(mktemp -d)"
  fetch_debs() { (cd "$debs" && apt-get download -qq "php-monolog=$PHP_MONOLOG_DEB" "php-psr-log=$PHP_PSR_LOG_DEB" 2>/dev/null); }
  if ! fetch_debs; then
    log "apt-get update, then php-monolog and php-psr-log again"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
    fetch_debs || die "apt-get download php-monolog=$PHP_MONOLOG_DEB php-psr-log=$PHP_PSR_LOG_DEB failed"
  fi
  rm -rf "$PHP_SRC" && mkdir -p "$PHP_SRC"
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$debs/x" || die "dpkg-deb -x $deb failed"; done
  cp -r "$debs/x/usr/share/php/." "$PHP_SRC/" || die "the PHP sources were not in the packages"
  printf '%s %s\n' "$PHP_MONOLOG_DEB" "$PHP_PSR_LOG_DEB" > "$PHP_SRC/.versions"
  rm -rf "$debs"
fi
CURRENT_STEP="taplo $TAPLO_VERSION (cargo install, with its lsp feature)"
if [ -x "$BIN/taplo" ] && [ "$("$BIN/taplo" --version 2>/dev/null)" = "taplo $TAPLO_VERSION" ]; then
  log "taplo $TAPLO_VERSION already installed"
else
  need cargo "taplo's language server is built from crates.io"
  log "building taplo $TAPLO_VERSION with cargo (a few minutes the first time)"
  # The build folder outlives the clone, so a fresh clone on this machine only links it again.
  CARGO_TARGET_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/lspq-cargo-target" cargo install --quiet --locked \
    --root "$TOOLS/taplo" --features lsp "taplo-cli@$TAPLO_VERSION" || die "cargo install taplo-cli@$TAPLO_VERSION failed"
  ln -sfn "$TOOLS/taplo/bin/taplo" "$BIN/taplo"
fi
CURRENT_STEP="basedpyright $BASEDPYRIGHT_VERSION"
if [ -x "$BIN/basedpyright-langserver" ] && "$TOOLS/venv/bin/pip" show basedpyright 2>/dev/null | grep -qx "Version: $BASEDPYRIGHT_VERSION"; then
  log "basedpyright $BASEDPYRIGHT_VERSION already installed"
else
  "$TOOLS/venv/bin/pip" install -q "basedpyright==$BASEDPYRIGHT_VERSION" || die "pip install basedpyright==$BASEDPYRIGHT_VERSION failed"
  ln -sfn "$TOOLS/venv/bin/basedpyright-langserver" "$BIN/basedpyright-langserver"
fi

# ---- shells and an arm64 runtime (completion tests; the linux-arm64 release binary under qemu) ----
CURRENT_STEP="zsh, fish, qemu-user and libc6-arm64-cross (apt)"
if command -v zsh >/dev/null && command -v fish >/dev/null && command -v qemu-aarch64 >/dev/null \
   && [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
  log "zsh, fish and qemu-user already installed"
else
  need apt-get "zsh, fish and qemu-user come from Debian's packages"
  log "installing zsh, fish, qemu-user and libc6-arm64-cross with apt-get"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    zsh fish qemu-user libc6-arm64-cross >/dev/null \
    || die "apt-get install zsh fish qemu-user libc6-arm64-cross failed"
fi

# ---- SCIP indexers (npm) ------------------------------------------------------
CURRENT_STEP="scip-typescript $SCIP_TYPESCRIPT_VERSION, scip-python $SCIP_PYTHON_VERSION"
if [ "$(npm_version @sourcegraph/scip-typescript)" = "$SCIP_TYPESCRIPT_VERSION" ] \
   && [ "$(npm_version @sourcegraph/scip-python)" = "$SCIP_PYTHON_VERSION" ] \
   && [ -x "$NODE_BIN/scip-typescript" ] && [ -x "$NODE_BIN/scip-python" ]; then
  log "SCIP indexers already installed"
else
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "@sourcegraph/scip-typescript@${SCIP_TYPESCRIPT_VERSION}" "@sourcegraph/scip-python@${SCIP_PYTHON_VERSION}" \
    || die "npm install of the SCIP indexers failed"
fi

# ---- the MCP Inspector (npm) ---------------------------------------------------
CURRENT_STEP="@modelcontextprotocol/inspector $MCP_INSPECTOR_VERSION"
if [ "$(npm_version @modelcontextprotocol/inspector)" = "$MCP_INSPECTOR_VERSION" ] && [ -x "$NODE_BIN/mcp-inspector" ]; then
  log "MCP Inspector already installed"
else
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "@modelcontextprotocol/inspector@${MCP_INSPECTOR_VERSION}" \
    || die "npm install of @modelcontextprotocol/inspector failed"
fi

# ---- a real monorepo's packages (npm) ------------------------------------------
CURRENT_STEP="@tanstack/query-core and query-persist-client-core $TANSTACK_QUERY_VERSION"
if [ "$(npm_version @tanstack/query-persist-client-core)" = "$TANSTACK_QUERY_VERSION" ] \
   && [ -d "$TOOLS/node_modules/@tanstack/query-core/src" ]; then
  log "TanStack Query packages already installed"
else
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "@tanstack/query-persist-client-core@${TANSTACK_QUERY_VERSION}" \
    || die "npm install of @tanstack/query-persist-client-core failed"
fi

# ---- real component libraries' sources (npm pack, unpacked) -------------------
CURRENT_STEP="vue-sonner $VUE_SONNER_VERSION, svelte-sonner $SVELTE_SONNER_VERSION, svelte-french-toast $SVELTE_FRENCH_TOAST_VERSION, runed $RUNED_VERSION, GitHub's schema"
PROJECTS="$TOOLS/projects"
# Each as folder name, then package@version.
UNPACKED=(
  "vue-sonner-$VUE_SONNER_VERSION" "vue-sonner@$VUE_SONNER_VERSION"
  "svelte-sonner-$SVELTE_SONNER_VERSION" "svelte-sonner@$SVELTE_SONNER_VERSION"
  "svelte-french-toast-$SVELTE_FRENCH_TOAST_VERSION" "svelte-french-toast@$SVELTE_FRENCH_TOAST_VERSION"
  "github-schema-$GITHUB_SCHEMA_VERSION" "@octokit/graphql-schema@$GITHUB_SCHEMA_VERSION"
  "github-schema-$GITHUB_SCHEMA_BROKEN" "@octokit/graphql-schema@$GITHUB_SCHEMA_BROKEN"
)
all_unpacked() {
  local i
  for ((i = 0; i < ${#UNPACKED[@]}; i += 2)); do [ -f "$PROJECTS/${UNPACKED[i]}/package.json" ] || return 1; done
}
if all_unpacked && [ "$(npm_version runed)" = "$RUNED_VERSION" ]; then
  log "vue-sonner, svelte-sonner, svelte-french-toast and GitHub's schema already unpacked"
else
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
    "runed@${RUNED_VERSION}" || die "npm install runed@${RUNED_VERSION} failed"
  packs="$(mktemp -d)"
  for ((i = 0; i < ${#UNPACKED[@]}; i += 2)); do
    dir="$PROJECTS/${UNPACKED[i]}" pkg="${UNPACKED[i + 1]}"
    tarball="$(cd "$packs" && npm pack --silent "$pkg")" || die "npm pack $pkg failed"
    rm -rf "$dir" && mkdir -p "$dir"
    tar xzf "$packs/$tarball" -C "$dir" --strip-components=1 || die "unpacking $tarball failed"
  done
  rm -rf "$packs"
fi

# ---- final check ------------------------------------------------------------
CURRENT_STEP="final check"
export PATH="$BIN:$NODE_BIN:$PATH"
check() { # name, command...
  local name=$1 out; shift
  out="$("$@" 2>&1)" || die "$name does not run: $* (output: $out)"
  out="${out%%$'\n'*}"
  [ -n "$out" ] || die "$name printed no version: $*"
  printf '  %-28s %s\n' "$name" "$out" >&2
}
log "installed servers ($(( SECONDS - START ))s):"
check gopls                      gopls version
check pyright-langserver         pyright --version
check typescript-language-server typescript-language-server --version
check "typescript (tsserver)"    node -p "'typescript ' + require('$TOOLS/node_modules/typescript/package.json').version + ' ' + require.resolve('$TOOLS/node_modules/typescript/lib/tsserver.js')"
check clangd                     clangd --version
check rust-analyzer              rust-analyzer --version
check ruff                       ruff --version
check pylsp                      pylsp --version
check jedi-language-server       jedi-language-server --version
check pre-commit                 pre-commit --version
check lefthook                   lefthook version
check bash-language-server       bash-language-server --version
check yaml-language-server       node -p "'yaml-language-server ' + require('$TOOLS/node_modules/yaml-language-server/package.json').version"
check vscode-json-language-server node -p "'vscode-langservers-extracted ' + require('$TOOLS/node_modules/vscode-langservers-extracted/package.json').version"
check docker-langserver          node -p "'dockerfile-language-server-nodejs ' + require('$TOOLS/node_modules/dockerfile-language-server-nodejs/package.json').version"
check basedpyright-langserver    "$TOOLS/venv/bin/basedpyright" --version
check graphql-lsp                node -p "'graphql-language-service-cli ' + require('$TOOLS/node_modules/graphql-language-service-cli/package.json').version"
check svelteserver               node -p "'svelte-language-server ' + require('$TOOLS/node_modules/svelte-language-server/package.json').version"
check intelephense               node -p "'intelephense ' + require('$TOOLS/node_modules/intelephense/package.json').version"
check taplo                      taplo --version
check tailwindcss-language-server node -p "'@tailwindcss/language-server ' + require('$TOOLS/node_modules/@tailwindcss/language-server/package.json').version"
check scip-typescript            scip-typescript --version
check scip-python                scip-python --version
check scip-go                    scip-go --version
check zsh                        zsh --version
check fish                       fish --version
check qemu-aarch64               qemu-aarch64 --version
check mcp-inspector              node -p "'mcp-inspector ' + require('$TOOLS/node_modules/@modelcontextprotocol/inspector/package.json').version"
log "done; put them on PATH with: source scripts/env.sh"
