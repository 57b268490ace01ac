#!/bin/bash
# How often does the emulation fault strike (lab/README.md, "Known emulation fault")? Starts N JVMs,
# PARALLEL at a time, and counts those that died from a signal (hs_err report kept), hung
# (RUN_TIMEOUT) or computed a wrong result.
#
#   lab/rdma-lab run --timeout 1500 lab/scripts/jvm-fault-rate.sh [N=16] [PARALLEL=2] [MODE=long] [VAR=value...]
#   MODE=long      (default) one long JVM each, like the lab test tier's: lab/scripts/JitChurn.java
#                  with THREADS=4 threads for SECONDS=60 s, defining hidden classes whose methods are
#                  compiled, checked and unloaded (a steady stream of fresh nmethods, the code cache
#                  reused) while one more thread runs everyday JDK code
#   MODE=patch     as long, but every round races THREADS threads through C1 code that patches
#                  itself on its first run (JitChurn.java's patch mode)
#   MODE=entry     the suspect itself, on demand: lab/scripts/EntryPatch.java, THREADS threads calling one
#                  method while a patcher thread has HotSpot compile it (LEVEL=1, C1; 4 is C2) and make it
#                  not entrant (the in-place rewrite of its verified entry) again and again, SECONDS s
#   MODE=javac     a short JVM: a small program through the source launcher (javac runs in the JVM)
#   MODE=loopback  jperf write-bw then write-lat --loopback, rxe1 -> rxe0 (two short jperf JVMs)
#   MODE=tier      the lab test tier's JVM itself, N times: TIER=<results>/lab-tests.sh, the script an
#                  earlier `lab/rdma-lab test` wrote (its class path is this checkout's build); each
#                  run gets a folder of its own as LAB_RESULTS; a crash of the test JVM or of a child
#                  JVM it starts (hs_err anywhere in that folder) is a fault, a failed test is not.
#                  JAVA_OPTS replaces the tier's own JVM flags (TEST_JAVA_OPTS) when given
#   JAVA_OPTS=...  more JVM flags (MODE=loopback: appended to JPERF_JAVA_OPTS)
#   PIN=0          run every JVM under taskset -c 0 (all its threads on one vCPU); PIN= none (default)
#   THP=never      set /sys/kernel/mm/transparent_hugepage/enabled first (always, madvise, never)
# The machine itself is chosen on the host: JPERF_LAB_ACCEL, JPERF_LAB_CPU, JPERF_LAB_SMP,
# JPERF_LAB_APPEND (lab/rdma-lab). Per JVM: $LAB_RESULTS/fault-rate/run-K.out, hs_err_K_pid*.log.
#
# Last line: "jvm-fault-rate: F of N JVMs faulted (C crashed, H hung, W wrong, O ok); ..." with the
# machine (QEMU options, kernel, CPU flags), the mode and the JVM options.
# Exit status 0 (the count is the result), 2 on usage errors.
set -uo pipefail
N=16 PARALLEL=2 JAVA_OPTS= RUN_TIMEOUT= MODE=long PIN= THP= THREADS=4 SECONDS_PER_JVM=60 TIER= LEVEL=1
for a in "$@"; do
  case $a in
    N=*|PARALLEL=*|JAVA_OPTS=*|RUN_TIMEOUT=*|MODE=*|PIN=*|THP=*|THREADS=*|TIER=*|LEVEL=*) printf -v "${a%%=*}" '%s' "${a#*=}" ;;
    SECONDS=*) SECONDS_PER_JVM=${a#*=} ;;
    *) echo "jvm-fault-rate.sh: unknown argument '$a' (N=, PARALLEL=, MODE=, JAVA_OPTS=, PIN=, THP=, THREADS=, SECONDS=, LEVEL=, RUN_TIMEOUT=)" >&2; exit 2 ;;
  esac
done
case $MODE in long|patch|entry|javac|loopback|tier) ;; *) echo "jvm-fault-rate.sh: MODE is long, patch, entry, javac, loopback or tier" >&2; exit 2 ;; esac
[ "$MODE" != tier ] || [ -f "$TIER" ] || { echo "jvm-fault-rate.sh: MODE=tier needs TIER=<results of lab/rdma-lab test>/lab-tests.sh" >&2; exit 2; }
case $THP in ''|always|madvise|never) ;; *) echo "jvm-fault-rate.sh: THP is always, madvise or never" >&2; exit 2 ;; esac
[[ $N =~ ^[0-9]+$ && $PARALLEL =~ ^[1-9][0-9]*$ && $THREADS =~ ^[1-9][0-9]*$ && $SECONDS_PER_JVM =~ ^[1-9][0-9]*$ ]] ||
  { echo "jvm-fault-rate.sh: N, PARALLEL, THREADS and SECONDS must be whole numbers" >&2; exit 2; }
[ -z "$PIN" ] || [[ $PIN =~ ^[0-9]+$ ]] || { echo "jvm-fault-rate.sh: PIN is a CPU number" >&2; exit 2; }
if [ -z "$RUN_TIMEOUT" ]; then
  case $MODE in long|patch) RUN_TIMEOUT=$((SECONDS_PER_JVM * 3 + 120)) ;; tier) RUN_TIMEOUT=600 ;; *) RUN_TIMEOUT=180 ;; esac
fi
: "${LAB_REPO:=$(cd "$(dirname "$0")/../.." && pwd)}"
out=${LAB_RESULTS:-/tmp}/fault-rate
mkdir -p "$out"
[ -z "$THP" ] || echo "$THP" > /sys/kernel/mm/transparent_hugepage/enabled || exit 2
pin=(); [ -n "$PIN" ] && pin=(taskset -c "$PIN")
cat > "$out/Probe.java" <<'JAVA'
import java.util.*;
import java.util.regex.*;
import java.util.stream.*;

public class Probe {
    public static void main(String[] args) {
        Pattern p = Pattern.compile("([a-z]+)-(\\d+)");
        Map<String, Integer> counts = new HashMap<>();
        long sum = 0;
        for (int i = 0; i < 20_000; i++) {
            Matcher m = p.matcher(String.format("key%s-%d", Integer.toString(i % 97, 36), i));
            if (m.find()) counts.merge(m.group(1), 1, Integer::sum);
            sum += IntStream.range(0, i % 17).map(x -> x * x).sum();
        }
        System.out.println(counts.size() + " " + sum);
    }
}
JAVA
if [ "$MODE" = entry ]; then
  [[ $LEVEL =~ ^[1-4]$ ]] || { echo "jvm-fault-rate.sh: LEVEL is 1-4" >&2; exit 2; }
  "$JAVA_HOME/bin/javac" -d "$out/whitebox" "$LAB_REPO/lab/scripts/whitebox/jdk/test/whitebox/WhiteBox.java" || exit 2
fi
run_one() { # K
  local t0=$SECONDS rc err="-XX:ErrorFile=$out/hs_err_$1_pid%p.log"
  case $MODE in
    long|patch)
      # shellcheck disable=SC2086
      timeout -k 5 "$RUN_TIMEOUT" "${pin[@]}" "$JAVA_HOME/bin/java" "$err" $JAVA_OPTS \
        "$LAB_REPO/lab/scripts/JitChurn.java" "$THREADS" "$SECONDS_PER_JVM" "$([ "$MODE" = patch ] && echo patch || echo churn)" \
        > "$out/run-$1.out" 2>&1 ;;
    entry)
      # shellcheck disable=SC2086
      timeout -k 5 "$RUN_TIMEOUT" "${pin[@]}" "$JAVA_HOME/bin/java" "$err" -Xbootclasspath/a:"$out/whitebox" \
        -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,EntryPatch::target \
        $JAVA_OPTS --class-path "$out/whitebox" "$LAB_REPO/lab/scripts/EntryPatch.java" "$THREADS" "$SECONDS_PER_JVM" "$LEVEL" 2>&1 |
        grep -v "^Warning: 'NoSuchMethodError' on register of jdk.test.whitebox" > "$out/run-$1.out"
      rc=${PIPESTATUS[0]}
      echo "$1 $rc $((SECONDS - t0))" > "$out/run-$1.rc"
      return ;;
    javac)
      # shellcheck disable=SC2086
      timeout -k 5 "$RUN_TIMEOUT" "${pin[@]}" "$JAVA_HOME/bin/java" "$err" $JAVA_OPTS "$out/Probe.java" > "$out/run-$1.out" 2>&1 ;;
    loopback)
      JPERF_JAVA_OPTS="${JPERF_JAVA_OPTS:-} $err $JAVA_OPTS" timeout -k 5 "$RUN_TIMEOUT" "${pin[@]}" bash -c \
        '"$1"/jperf write-bw --loopback -d rxe1 --peer-dev rxe0 -s 65536 -n 2000 -F &&
         "$1"/jperf write-lat --loopback -d rxe1 --peer-dev rxe0 -n 1000 -F' _ "$LAB_REPO" > "$out/run-$1.out" 2>&1 ;;
    tier)
      mkdir -p "$out/tier-$1"
      # shellcheck disable=SC2086
      LAB_RESULTS=$out/tier-$1 ${JAVA_OPTS:+TEST_JAVA_OPTS="$JAVA_OPTS"} timeout -k 5 "$RUN_TIMEOUT" "${pin[@]}" bash "$TIER" > "$out/run-$1.out" 2>&1 ;;
  esac
  rc=$?
  [ "$MODE" != tier ] || for f in $(find "$out/tier-$1" -name 'hs_err_pid*.log'); do mv "$f" "$out/hs_err_$1_${f##*/hs_err_}"; done
  echo "$1 $rc $((SECONDS - t0))" > "$out/run-$1.rc"
}
k=0
while [ $k -lt "$N" ]; do
  pids=()
  for _ in $(seq "$PARALLEL"); do
    [ $k -lt "$N" ] || break
    k=$((k + 1)); run_one "$k" & pids+=($!)
  done
  wait "${pids[@]}"
done
crashed=0 hung=0 wrong=0 ok=0 other=0
: > "$out/summary.txt"
for f in "$out"/run-*.rc; do
  read -r i rc secs < "$f"
  errs=$(compgen -G "$out/hs_err_${i}_pid*.log" | paste -sd' ')
  if [ -n "$errs" ]; then
    crashed=$((crashed + 1))
    s="crashed (exit $rc): $(grep -h -m1 -E '^#  +SIG' $errs | sed 's/^# *//') $(grep -h -m1 -A1 '^# Problematic frame' $errs | tail -1 | cut -c1-160)"
  else
    case $rc in
      0) ok=$((ok + 1)); s=ok ;;
      124|137) hung=$((hung + 1)); s=hung ;;
      1) if [ "$MODE" = tier ]; then ok=$((ok + 1)); s="ok, with failed tests: $(grep -m1 -E 'tests failed' "$out/run-$i.out")"; else other=$((other + 1)); s="exit 1: $(tail -1 "$out/run-$i.out" | cut -c1-120)"; fi ;;
      3) if [ "$MODE" = long ] || [ "$MODE" = patch ] || [ "$MODE" = entry ]; then wrong=$((wrong + 1)); s="wrong results: $(grep -c '^WRONG' "$out/run-$i.out")"; else other=$((other + 1)); s="exit 3"; fi ;;
      *) other=$((other + 1)); s="exit $rc: $(tail -1 "$out/run-$i.out" | cut -c1-120)" ;;
    esac
  fi
  echo "run $i: ${secs}s $s $(grep -h -m1 -E '^(JitChurn|EntryPatch):' "$out/run-$i.out" 2> /dev/null)" >> "$out/summary.txt"
done
sort -n -k2 "$out/summary.txt"
faults=$((crashed + hung + wrong))
flags=$(grep -m1 '^flags' /proc/cpuinfo | grep -o -w -e avx -e avx2 -e pcid -e invpcid -e la57 -e pku -e xsaves -e smep -e smap -e rdpid | sort -u | paste -sd,)
echo "jvm-fault-rate: $faults of $N JVMs faulted ($crashed crashed, $hung hung, $wrong wrong, $ok ok, $other other failures); qemu ${LAB_QEMU:-?}; kernel $(uname -r); $(nproc) vCPUs; cpu flags ${flags:-none of avx,avx2,pcid,invpcid,la57,pku,xsaves,smep,smap,rdpid}; THP $(grep -o '\[[a-z]*\]' /sys/kernel/mm/transparent_hugepage/enabled); MODE $MODE$([ "$MODE" = long ] || [ "$MODE" = patch ] || [ "$MODE" = entry ] && echo " ($THREADS threads, ${SECONDS_PER_JVM} s$([ "$MODE" = entry ] && echo ", level $LEVEL"))")$([ "$MODE" = entry ] && echo "; entry rewrites $(grep -h -o -E '^EntryPatch: [0-9]+' "$out"/run-*.out | awk '{s += $2} END {print s + 0}')")$([ "$MODE" = tier ] && echo " ($(grep -o -m1 "^TEST_JAVA_OPTS=.*" "$TIER"))"); PARALLEL $PARALLEL; PIN ${PIN:-none}; JAVA_OPTS ${JAVA_OPTS:-none}"
