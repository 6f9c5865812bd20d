# Source this file (bash or zsh) to put the project-local language servers
# installed by scripts/install-servers.sh at the front of PATH:
#
#   source scripts/env.sh
#
# Safe to source more than once: existing copies of the two folders are
# removed from PATH before they are put back at the front.
if [ -n "${BASH_SOURCE:-}" ]; then
  _lspq_env_src="${BASH_SOURCE[0]}"
elif [ -n "${ZSH_VERSION:-}" ]; then
  eval '_lspq_env_src="${(%):-%x}"'
else
  _lspq_env_src="$0"
fi
case "$_lspq_env_src" in
  */*) _lspq_env_dir="${_lspq_env_src%/*}" ;;
  *) _lspq_env_dir=. ;;
esac
LSPQ_ROOT="$(CDPATH='' cd -- "$_lspq_env_dir/.." && pwd)"
LSPQ_TOOLS="$LSPQ_ROOT/.tools"
export LSPQ_ROOT LSPQ_TOOLS
# typescript 5 whose lib/tsserver.js typescript-language-server must use
# (pass as initializationOptions.tsserver.path).
export LSPQ_TSSERVER_PATH="$LSPQ_TOOLS/node_modules/typescript/lib/tsserver.js"
for _lspq_dir in "$LSPQ_TOOLS/node_modules/.bin" "$LSPQ_TOOLS/bin"; do
  _lspq_path=":$PATH:"
  while case "$_lspq_path" in *":$_lspq_dir:"*) true ;; *) false ;; esac; do
    _lspq_path="${_lspq_path%%":$_lspq_dir:"*}:${_lspq_path#*":$_lspq_dir:"}"
  done
  _lspq_path="${_lspq_path#:}"
  _lspq_path="${_lspq_path%:}"
  PATH="$_lspq_dir${_lspq_path:+:$_lspq_path}"
done
export PATH
unset _lspq_env_src _lspq_env_dir _lspq_dir _lspq_path
