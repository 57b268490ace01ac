#!/bin/bash
# The data path's cost under emulation: JMH LatencyLoopBenchmark.engineVsC (the engine's write-lat
# round and the same loop in C, back to back, both on the C stub provider) inside the guest.
#   lab/rdma-lab run lab/scripts/jmh-in-guest.sh [LEVELS=1,4] [ITERS=5]
# Runs once per JIT level (-XX:TieredStopAtLevel, 1 = C1 as jperf runs in the lab, 4 = C2), the
# JMH JVM under taskset -c 1 like one end of compare-perftest.sh. Prints, per measured iteration,
# ns per round of the fastest 4096-round chunk and the mean, Java and C: the Java-over-C difference
# is what the Java code of a round adds to each end of a write-lat round trip in this guest.
# Needs bench/target/benchmarks.jar and bench/target/native/libjperfstub.so (./test.sh or
# `mvn -pl bench -am package` on the host builds them). JSON: $LAB_RESULTS/jmh-<level>.json.
set -uo pipefail
. "$LAB_REPO/lab/guest/lib.sh"
LEVELS=1,4 ITERS=5
for a in "$@"; do
  case $a in
    LEVELS=*|ITERS=*) printf -v "${a%%=*}" '%s' "${a#*=}" ;;
    *) echo "jmh-in-guest.sh: unknown argument '$a' (LEVELS=1,4 ITERS=5)" >&2; exit 2 ;;
  esac
done
[[ $ITERS =~ ^[1-9][0-9]*$ ]] || { echo "jmh-in-guest.sh: ITERS must be a positive number, got '$ITERS'" >&2; exit 2; }
JAR=$LAB_REPO/bench/target/benchmarks.jar
[ -f "$JAR" ] && [ -f "$LAB_REPO/bench/target/native/libjperfstub.so" ] \
  || { echo "jmh-in-guest.sh: build the bench on the host first (./test.sh or mvn -pl bench -am package)" >&2; exit 2; }
cd "$LAB_REPO" || exit 2
fail=0
IFS=, read -ra LV <<< "$LEVELS"
for lvl in "${LV[@]}"; do
  [[ $lvl =~ ^[0-4]$ ]] || { echo "jmh-in-guest.sh: a level is 0-4, got '$lvl'" >&2; exit 2; }
  json=$LAB_RESULTS/jmh-$lvl.json
  echo "=== -XX:TieredStopAtLevel=$lvl, LatencyLoopBenchmark.engineVsC -f 1 -wi 3 -w 2s -i $ITERS -r 2s"
  if ! taskset -c 1 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$JAR" 'LatencyLoopBenchmark\.engineVsC' \
      -f 1 -wi 3 -w 2s -i "$ITERS" -r 2s -jvmArgsAppend "-XX:TieredStopAtLevel=$lvl" -rf json -rff "$json" \
      > "$LAB_RESULTS/jmh-$lvl.log" 2>&1; then
    echo "JMH failed, see $LAB_RESULTS/jmh-$lvl.log"; tail -5 "$LAB_RESULTS/jmh-$lvl.log"; fail=1; continue
  fi
  # per iteration: counters summed over its invocations; chunkWrs = rounds of one chunk
  python3 - "$json" <<'EOF' || fail=1
import json, sys
m = json.load(open(sys.argv[1]))[0]["secondaryMetrics"]
raw = lambda k: [x for it in m[k]["rawData"] for x in it]
jmin, cmin, chunk, jns, cns, wrs = (raw(k) for k in ("javaMinNs", "cMinNs", "chunkWrs", "javaNs", "cNs", "wrs"))
for i, (a, b, n, c, d, w) in enumerate(zip(jmin, cmin, chunk, jns, cns, wrs), 1):
    print(f"iteration {i}: fastest chunk {a / n:8.1f} ns/round Java, {b / n:7.1f} C (x{a / b:.2f}); "
          f"mean {c / w:8.1f} Java, {d / w:7.1f} C")
EOF
done
exit $fail
