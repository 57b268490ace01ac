#!/bin/sh
# Builds the bench stub provider: bench/src/main/c/*.c -> $1 (a shared library).
# Run by the Maven build (exec-maven-plugin, generate-resources phase); fails with a clear
# message when gcc or the rdma-core headers are missing.
set -eu
out=${1:?usage: build-stub.sh <output .so>}
src=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-gcc}

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "jperf-bench: cannot build the C stub provider: '$CC' not found on PATH." >&2
    echo "jperf-bench: install gcc (apt-get install gcc libc6-dev libibverbs-dev) or set CC." >&2
    exit 1
fi
if ! printf '#include <infiniband/verbs.h>\n' | "$CC" -fsyntax-only -x c - >/dev/null 2>&1; then
    echo "jperf-bench: cannot build the C stub provider: <infiniband/verbs.h> not found." >&2
    echo "jperf-bench: install the rdma-core headers (apt-get install libibverbs-dev)." >&2
    exit 1
fi
mkdir -p "$(dirname "$out")"
# The stub only uses verbs.h struct layouts and static inlines: no -libverbs at link time.
"$CC" -O2 -fPIC -shared -std=gnu11 -Wall -Wextra -Werror \
    -o "$out" "$src/stub_provider.c" "$src/stub_c_loop.c"
echo "jperf-bench: built $out"
