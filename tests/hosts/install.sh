#!/bin/sh
# What `make demo` and `make test` need beyond a Rust toolchain, installed when missing:
# the sqlite3 shell and /usr/bin/python3 with its venv module (test hosts and the Python
# package's virtual environments, from Debian's packages), and rustfmt and clippy (from
# rustup). On a machine that has them, it does nothing.
set -eu
need=""
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
