#!/bin/sh
# recall mcp against the official MCP Python SDK: a fresh virtual environment from the
# system Python, `mcp` from PyPI, then tests/mcp/test_mcp.py over stdio and
# tests/mcp/test_http.py over streamable HTTP (recall mcp --http, loopback).
#   tests/mcp/run.sh [path/to/recall]     (default: target/debug/recall)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
recall=${1:-"${CARGO_TARGET_DIR:-$root/target}/debug/recall"}
[ -x "$recall" ] || { echo "$recall is missing: run cargo build first" >&2; exit 1; }
python=/usr/bin/python3
. "$root/tests/hosts/python_venv.sh"
ensure_python_venv
work=$(mktemp -d "${TMPDIR:-/tmp}/recall-mcp.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
"$python" -m venv "$work/venv"
# The SDK's 2.x client API (stdio_client, ClientSession) is what the test speaks.
"$work/venv/bin/pip" install --quiet --disable-pip-version-check 'mcp>=2.3,<3'
"$work/venv/bin/python" -c 'import importlib.metadata as m; print("mcp (PyPI)", m.version("mcp"))'
"$work/venv/bin/python" "$root/tests/mcp/test_mcp.py" \
  --recall "$recall" --sample "$root/examples/sample.jsonl" --work "$work"
mkdir "$work/http"
"$work/venv/bin/python" "$root/tests/mcp/test_http.py" \
  --recall "$recall" --sample "$root/examples/sample.jsonl" --work "$work/http"
