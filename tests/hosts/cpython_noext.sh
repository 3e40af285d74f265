#!/bin/sh
# A CPython whose sqlite3 cannot load extensions, for the test of sqlite_recall.load()'s
# error (tests/packages/test_python.py), made the ordinary Debian way when the machine
# has none (tests/packages/python.sh asks pyenv's first): the upstream source of Debian's
# python3.11 package, fetched and checked by `apt-get source` against the archive's
# signed index (through a deb-src list of its own: the machine's may have none), built
# with CPython's plain `./configure --prefix=PREFIX`, which leaves loadable sqlite
# extensions off, and installed into PREFIX. The build tools and libraries it needs are
# installed by apt-get when missing (with sudo when not root). PREFIX is kept: on a
# machine that has it, this does nothing. The build's output is in PREFIX.log.
# Usage: tests/hosts/cpython_noext.sh PREFIX
set -eu
[ "$#" -eq 1 ] || { echo "usage: cpython_noext.sh PREFIX" >&2; exit 2; }
case "$1" in
  /*) prefix=$1 ;;
  *) prefix=$(pwd)/$1 ;;
esac
# What pip (TLS, zlib), venv, ctypes and the test need from the interpreter.
modules="sqlite3, ssl, zlib, ctypes, bz2, lzma, venv, ensurepip"
if [ -x "$prefix/bin/python3" ] && "$prefix/bin/python3" -c "import $modules" 2>/dev/null; then
  exit 0
fi

need=""
for package in gcc make pkg-config xz-utils libsqlite3-dev libssl-dev zlib1g-dev \
  libffi-dev libbz2-dev liblzma-dev; do
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null)" = installed ] ||
    need="$need $package"
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ -n "$need" ]; then
  echo "installing$need (to build CPython)"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq $need >/dev/null
fi

mkdir -p "$(dirname "$prefix")"
work=$(mktemp -d "$prefix.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$prefix.log
: >"$log"
step() {
  echo "cpython_noext.sh: $1 (output in $log)"
  echo "== $1" >>"$log"
}
failed() {
  tail -n 30 "$log" >&2
  echo "cpython_noext.sh: $1 failed; the whole output is in $log" >&2
  exit 1
}

# Debian bookworm's source index, signed by the archive key every Debian machine has;
# apt checks the files it fetches against it. Lists and caches stay in $work.
step "fetching the source of Debian's python3.11 with apt-get source"
mkdir -p "$work/sources" "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
cat >"$work/sources/debian-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# As root, apt fetches as the user _apt, who must be able to write where files land.
[ "$(id -u)" -ne 0 ] || chmod -R a+rwx "$work"
apt_src() {
  apt-get -q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/sources" \
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" "$@" >>"$log" 2>&1
}
apt_src update || failed "apt-get update of the deb-src list"
(cd "$work/src" && apt_src source --download-only python3.11) ||
  failed "apt-get source --download-only python3.11"
set -- "$work"/src/python3.11_*.orig.tar.*
[ "$#" -eq 1 ] && [ -f "$1" ] || failed "finding the one .orig.tar.* among $(ls "$work/src")"
echo "source: $(basename "$1")" >>"$log"
tar --no-same-owner -xf "$1" -C "$work/src" || failed "unpacking $1"
set -- "$work"/src/Python-*/configure
[ "$#" -eq 1 ] && [ -f "$1" ] || failed "finding CPython's configure in $(basename "$1")"
tree=$(dirname "$1")

step "configure --prefix=$prefix"
(cd "$tree" && ./configure --prefix="$prefix") >>"$log" 2>&1 || failed "configure"
jobs=$(nproc 2>/dev/null || echo 2)
step "make -j$jobs"
make -C "$tree" -j"$jobs" >>"$log" 2>&1 || failed "make"
# Installed beside PREFIX, then renamed to it: PREFIX exists only once it is whole.
step "make install"
make -C "$tree" install DESTDIR="$work/stage" >>"$log" 2>&1 || failed "make install"
rm -rf "$prefix"
mv "$work/stage$prefix" "$prefix"
"$prefix/bin/python3" -c "import $modules" >>"$log" 2>&1 ||
  failed "importing $modules in the built $prefix/bin/python3 (a library missing at configure time)"
echo "cpython_noext.sh: built $("$prefix/bin/python3" --version) in $prefix"
