#!/usr/bin/env bash
# Regenerates io.jperf.ffi.generated (native-bindings) from the installed rdma-core headers.
# Needs `jextract` on PATH (see jextract/README.md: it is not packaged, you build it once)
# and the Debian packages libibverbs-dev and librdmacm-dev.
# The generated package is wiped and rewritten; never edit it by hand.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out_root=native-bindings/src/main/java
pkg=io.jperf.ffi.generated
pkg_dir="$out_root/${pkg//.//}"

if ! command -v jextract >/dev/null 2>&1; then
  echo "regenerate.sh: 'jextract' is not on PATH." >&2
  echo "  It is not packaged for Debian or Maven Central; build it from openjdk/jextract" >&2
  echo "  with JDK 25 and libclang-14 as described in jextract/README.md, then retry." >&2
  exit 2
fi
for h in /usr/include/infiniband/verbs.h /usr/include/rdma/rdma_cma.h; do
  if [ ! -f "$h" ]; then
    echo "regenerate.sh: $h missing: apt-get install libibverbs-dev librdmacm-dev" >&2
    exit 2
  fi
done

cd "$root"
echo "jextract: $(jextract --version 2>&1 | tr '\n' ' ')"

rm -rf "$pkg_dir"
# Relative paths only, so nothing machine-specific can end up in the output.
jextract \
  --output "$out_root" \
  --target-package "$pkg" \
  --header-class-name rdma_h \
  --library :libibverbs.so.1 \
  --library :librdmacm.so.1 \
  @jextract/includes.txt \
  jextract/rdma.h

count=$(find "$pkg_dir" -name '*.java' | wc -l)
lines=$(find "$pkg_dir" -name '*.java' -exec cat {} + | wc -l)
echo "generated: $count files, $lines lines in $pkg_dir"

# The dependency check misses by-value members (pthread types): always compile.
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -Eq 'version "(2[5-9]|[3-9][0-9])'; then
  if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
    export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
  fi
fi
echo "compiling native-bindings (JAVA_HOME=${JAVA_HOME:-unset})"
mvn -B -q -pl native-bindings -am compile

echo "changes in $pkg_dir:"
git diff --stat -- "$pkg_dir"
untracked=$(git ls-files --others --exclude-standard -- "$pkg_dir" | wc -l)
if [ "$untracked" -gt 0 ]; then
  echo "$untracked untracked file(s) (new, not yet committed):"
  git ls-files --others --exclude-standard -- "$pkg_dir" | sed 's/^/  /'
fi
