#!/usr/bin/env bash
# jperf bench CI gate: a short JMH pass of the data-path benchmarks against the C stub provider
# (PostPollBenchmark: Java loop, C loop, both interleaved; the engines' BandwidthLoop and
# LatencyLoop interleaved with their C twins), then GateCheck compares each Java/C ratio from
# this run with the committed bench/baseline.json. See bench/README.md ("The CI gate").
#
#   bench/ci-gate.sh                    build benchmarks.jar if stale, run, check (exit 1 on regression)
#   bench/ci-gate.sh --update-baseline  run twice and rewrite bench/baseline.json (then commit it)
#
# A failing check is re-run once (fresh JMH run) before the gate fails: a regression must
# reproduce, a burst of load from a neighbour on a shared 2-core machine usually does not.
# Exit status: 0 pass, 1 regression (both runs), 2 bad input / JMH or build failure.
# Runs from any directory; ~1.5 minutes per JMH pass on 2 cores (a retry or --update-baseline
# doubles that), plus the build when the jar is stale.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8's bundled Guava warns about sun.misc.Unsafe on JDK 25; keep the gate's log readable.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"

JAR=bench/target/benchmarks.jar
RESULT=bench/target/jmh-result.json
LOG=bench/target/jmh-gate.log
BASELINE=bench/baseline.json
# The gated benchmarks: every pair listed in the baseline must be in this selection.
BENCHMARKS='io\.jperf\.bench\.(PostPollBenchmark\.|BandwidthLoopBenchmark\.engineVsC|LatencyLoopBenchmark\.engineVsC)'
JMH_OPTS=(-f 1 -wi 2 -w 1s -i 3 -r 1s -prof gc -foe true)

update=0
for arg in "$@"; do
    case "$arg" in
        --update-baseline) update=1 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "ci-gate: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

start=$(date +%s)
stale=$( [ -f "$JAR" ] && find pom.xml bench/pom.xml bench/src core/pom.xml core/src \
    native-bindings/pom.xml native-bindings/src -newer "$JAR" -type f 2>/dev/null | head -1 )
if [ ! -f "$JAR" ] || [ -n "$stale" ]; then
    echo "ci-gate: building $JAR (${stale:-missing})"
    if ! mvn -B -ntp -q -pl bench -am -DskipTests package; then
        echo "ci-gate: FAIL: the bench build failed (see above)" >&2
        exit 2
    fi
fi

run_jmh() {
    echo "ci-gate: JMH ${JMH_OPTS[*]} on $BENCHMARKS (full log: $LOG)"
    rm -f "$RESULT"
    if ! java --enable-native-access=ALL-UNNAMED -jar "$JAR" "$BENCHMARKS" "${JMH_OPTS[@]}" \
            -rf json -rff "$RESULT" >"$LOG" 2>&1; then
        tail -n 40 "$LOG"
        echo "ci-gate: FAIL: JMH failed (a benchmark threw, or its stub check failed); full log in $LOG" >&2
        exit 2
    fi
    # JMH's summary, without the counters GateCheck reads from the JSON anyway.
    sed -n '/^Benchmark  /,$p' "$LOG" | grep -v -e ':gc.count' -e ':gc.alloc.rate ' -e ':gc.time' \
        -e ':javaNs' -e ':cNs' -e ':wrs' -e ':javaMinNs' -e ':cMinNs' -e ':chunkWrs' -e 'Benchmark result is saved'
}

check() {
    java -cp "$JAR" io.jperf.bench.gate.GateCheck "$RESULT" "$BASELINE" "$@"
}

if [ "$update" = 1 ]; then
    # Two runs; the baseline keeps the higher ratio of each entry, so one lucky run cannot make
    # the gate stricter than the machine can hold.
    run_jmh
    cp "$RESULT" "${RESULT%.json}-1.json"
    run_jmh
    java -cp "$JAR" io.jperf.bench.gate.GateCheck "${RESULT%.json}-1.json" "$RESULT" "$BASELINE" --update-baseline
    rc=$?
else
    run_jmh
    check
    rc=$?
    if [ "$rc" = 1 ]; then
        echo
        echo "ci-gate: the check failed; re-running JMH once to tell a regression from noise"
        run_jmh
        check
        rc=$?
    fi
fi
echo "ci-gate: done in $(( $(date +%s) - start ))s, exit $rc"
exit "$rc"
