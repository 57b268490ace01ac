#!/bin/bash
# Builds the upstream perftest releases the interop tier runs against, once, into a cache:
#   lab/perftest-build.sh DEST [SRC_DIR]
# SRC_DIR (default: ../shared/perftest-src next to the checkout, or $JPERF_PERFTEST_SRC) holds perftest-*.tar.gz
# source releases (e.g. perftest-26.01.5 = 6.28, perftest-26.04.17 = 6.29). Each is unpacked, configured and
# built in a temporary folder; its binaries go to DEST/<version>/ (ib_write_bw, ib_write_lat, ... as built),
# with DEST/<version>/.source naming the tarball and its SHA-256. A version already built from the same
# tarball is kept. Debian's own perftest (6.06) is the `perftest` package and is not built here.
# Needs: gcc make autoconf automake libtool pkg-config libibverbs-dev librdmacm-dev libibumad-dev libpci-dev.
# Exit 0 also when no source folder exists (the interop tier then says which rows it could not run).
set -euo pipefail
dest=${1:?usage: lab/perftest-build.sh DEST [SRC_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
src=${2:-${JPERF_PERFTEST_SRC:-$here/../shared/perftest-src}}
if ! compgen -G "$src/perftest-*.tar.gz" > /dev/null; then
  echo "perftest-build: no perftest-*.tar.gz in $src: upstream perftest rows of the interop tier will not run" >&2
  exit 0
fi
mkdir -p "$dest"
for tarball in "$src"/perftest-*.tar.gz; do
  sum=$(sha256sum "$tarball" | cut -d' ' -f1)
  work=$(mktemp -d)
  tar -xzf "$tarball" -C "$work"
  top=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
  version=$(sed -n 's/^AC_INIT(\[perftest\],\[\([0-9.]*\)\].*/\1/p' "$top/configure.ac")
  if [ -z "$version" ]; then
    echo "perftest-build: cannot read the version of $(basename "$tarball") (AC_INIT in configure.ac)" >&2
    rm -rf "$work"; exit 1
  fi
  out=$dest/$version
  if [ -x "$out/ib_write_bw" ] && grep -qs "$sum" "$out/.source"; then
    echo "perftest-build: $version cached ($out)" >&2
    rm -rf "$work"; continue
  fi
  echo "perftest-build: building $version from $(basename "$tarball")" >&2
  t0=$SECONDS
  if ! (cd "$top" && ./autogen.sh && ./configure && make -j"$(nproc)") > "$work/build.log" 2>&1; then
    tail -n 30 "$work/build.log" >&2
    echo "perftest-build: building $version failed (log above)" >&2
    rm -rf "$work"; exit 1
  fi
  rm -rf "$out"; mkdir -p "$out"
  find "$top" -maxdepth 1 -type f -perm -u+x -name 'ib_*' -exec cp {} "$out/" \;
  echo "$(basename "$tarball") $sum" > "$out/.source"
  "$out/ib_write_bw" --version >&2 || true
  echo "perftest-build: $version built in $((SECONDS - t0)) s -> $out" >&2
  rm -rf "$work"
done
