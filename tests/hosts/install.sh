#!/bin/sh
# What `make demo` and `make test` need beyond a Rust toolchain, installed when missing:
# the sqlite3 shell and /usr/bin/python3 with its venv module (test hosts and the Python
# package's virtual environments), make and a C compiler (the bundled SQLite, and
# better-sqlite3's addon), all from Debian's packages, and rustfmt and clippy (from
# rustup); with --node (`make test`), Node and npm too (the Node package's test), which
# must be Node 20 or newer: an older one (Debian 12 ships 18) is named here, before the
# build, with what to do; with --browser (`make test`), Chromium, its WebDriver and
# Selenium for /usr/bin/python3 (`recall ui`'s browser test, tests/ui/), from Debian's
# packages. On a machine that has them all, it does nothing.
# Usage: tests/hosts/install.sh [--node] [--browser]
set -eu
node=""
browser=""
for arg in "$@"; do
  case "$arg" in
    --node) node=1 ;;
    --browser) browser=1 ;;
    *) echo "install.sh: unknown option $arg (--node, --browser)" >&2; exit 2 ;;
  esac
done
need=""
if [ -n "$browser" ]; then
  [ -x /usr/bin/chromium ] || need="$need chromium"
  [ -x /usr/bin/chromedriver ] || need="$need chromium-driver"
  /usr/bin/python3 -c 'import selenium' 2>/dev/null || need="$need python3-selenium"
fi
command -v make >/dev/null 2>&1 || need="$need make"
command -v cc >/dev/null 2>&1 || need="$need gcc g++"
if [ -n "$node" ]; then
  command -v node >/dev/null 2>&1 || need="$need nodejs"
  command -v npm >/dev/null 2>&1 || need="$need npm"
fi
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
[ -x /usr/bin/python3 ] || need="$need python3"
# Debian ships venv's ensurepip apart from python3.
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need="$need python3-venv"
if [ -n "$need" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing$need"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq $need >/dev/null
fi
if command -v rustup >/dev/null 2>&1; then
  for component in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep -q "^$component" ||
      rustup component add "$component"
  done
fi
[ -n "$node" ] || exit 0
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 20 ]; then
  echo "install.sh: Node $(node --version 2>/dev/null || echo '(none)') is older than the Node test needs (20 or newer, for better-sqlite3 12): install Node 20 or newer first (README, Set up)" >&2
  exit 1
fi
