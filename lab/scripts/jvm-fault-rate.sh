#!/bin/bash
# How often does the known emulation fault strike (lab/README.md, "Known emulation fault")? Starts N
# JVMs, PARALLEL at a time, each running a small program through the source launcher: javac runs in
# the JVM first, so thousands of JIT compilations happen in the first seconds, where the fault
# strikes. Counts the JVMs that died from a signal (hs_err report kept) or hung (RUN_TIMEOUT).
#
#   lab/rdma-lab run --timeout 1500 lab/scripts/jvm-fault-rate.sh [N=16] [PARALLEL=2] [JAVA_OPTS=...] [MODE=javac]
#   MODE=javac     the source launcher (no RDMA)
#   MODE=loopback  jperf write-bw then write-lat --loopback, rxe1 -> rxe0 in one JVM (RDMA in the
#                  process that is JIT-compiling); JAVA_OPTS go to JPERF_JAVA_OPTS
#   JPERF_LAB_KERNEL=6.1.0-50-amd64 lab/rdma-lab setup     # another guest kernel, then run again
#
# Last line: "jvm-fault-rate: F of N JVMs faulted (C crashed, H hung); kernel K; cpu M; JAVA_OPTS ..."
# Exit status 0 (the count is the result), 2 on usage errors.
set -uo pipefail
N=16 PARALLEL=2 JAVA_OPTS= RUN_TIMEOUT=180 MODE=javac
for a in "$@"; do
  case $a in
    N=*|PARALLEL=*|JAVA_OPTS=*|RUN_TIMEOUT=*|MODE=*) printf -v "${a%%=*}" '%s' "${a#*=}" ;;
    *) echo "jvm-fault-rate.sh: unknown argument '$a' (N=, PARALLEL=, JAVA_OPTS=, RUN_TIMEOUT=)" >&2; exit 2 ;;
  esac
done
case $MODE in javac|loopback) ;; *) echo "jvm-fault-rate.sh: MODE is javac or loopback" >&2; exit 2 ;; esac
[[ $N =~ ^[0-9]+$ && $PARALLEL =~ ^[1-9][0-9]*$ ]] || { echo "jvm-fault-rate.sh: N and PARALLEL must be whole numbers" >&2; exit 2; }
out=${LAB_RESULTS:-/tmp}/fault-rate
mkdir -p "$out"
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
run_one() { # K
  local t0=$SECONDS rc
  if [ "$MODE" = javac ]; then
    # shellcheck disable=SC2086
    timeout -k 5 "$RUN_TIMEOUT" "$JAVA_HOME/bin/java" "-XX:ErrorFile=$out/hs_err_$1_pid%p.log" $JAVA_OPTS "$out/Probe.java" \
      > "$out/run-$1.out" 2>&1
  else
    JPERF_JAVA_OPTS="-XX:ErrorFile=$out/hs_err_$1_pid%p.log -XX:TieredStopAtLevel=1 $JAVA_OPTS" \
      timeout -k 5 "$RUN_TIMEOUT" bash -c '"$1"/jperf write-bw --loopback -d rxe1 --peer-dev rxe0 -s 65536 -n 2000 -F &&
        "$1"/jperf write-lat --loopback -d rxe1 --peer-dev rxe0 -n 1000 -F' _ "$LAB_REPO" > "$out/run-$1.out" 2>&1
  fi
  rc=$?
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
crashed=0 hung=0 ok=0
for f in "$out"/run-*.rc; do
  read -r i rc secs < "$f"
  case $rc in
    0) ok=$((ok + 1)); s=ok ;;
    124|137) hung=$((hung + 1)); s=hung ;;
    *) if compgen -G "$out/hs_err_${i}_pid*.log" > /dev/null; then crashed=$((crashed + 1)); s="crashed: $(grep -m1 -A0 '^# [JC] ' "$out"/hs_err_"${i}"_pid*.log | cut -c1-120)"; else s="exit $rc"; fi ;;
  esac
  echo "run $i: ${secs}s $s" >> "$out/summary.txt"
done
sort -n -k2 "$out/summary.txt"
echo "jvm-fault-rate: $((crashed + hung)) of $N JVMs faulted ($crashed crashed, $hung hung, $ok ok); kernel $(uname -r); cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); flags $(grep -m1 -o -w -e avx2 -e pcid -e invpcid -e xsaves /proc/cpuinfo | sort -u | paste -sd,); MODE $MODE; JAVA_OPTS ${JAVA_OPTS:-none}"
