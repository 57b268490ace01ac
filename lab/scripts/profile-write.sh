#!/bin/bash
# Where a write_lat or write_bw client's CPU time goes in steady state, jperf or perftest, in the 1-guest lab:
#   lab/rdma-lab run --timeout 900 lab/scripts/profile-write.sh [KIND=lat|bw] [TOOL=jperf|perftest|jperf,perftest] [ITERS=400000] [SLICE=72%-94%]
# Server on rxe0 pinned to vCPU 0, client on rxe1 pinned to vCPU 1, write_KIND 2 B x ITERS. `perf record -a`
# (cpu-clock, 999 Hz) covers the client's whole life; the reports cover only the SLICE of its run time, which
# for a long run lies inside the measured loop (after the JVM's start and warm-up, before the statistics).
# jperf's JVM dumps a perf map at exit (-XX:+DumpPerfMapAtExit) so that compiled Java frames have names, and
# logs class loading, so a heap memory segment (which stops C1 inlining the segment accessors) is named.
# Needs `perf` on the host (Debian: apt-get install linux-perf); the guest runs the host's binaries.
# Output in $LAB_RESULTS/profile/: KIND.TOOL.by-dso.txt (comm, dso), KIND.TOOL.by-thread.txt, KIND.TOOL.by-symbol.txt, the
# client's and server's outputs, and for jperf classes-PID.txt. perf writes its data to the guest's /tmp:
# on the 9p results folder its header comes out unreadable.
set -uo pipefail
KIND=lat TOOL=jperf ITERS=400000 SLICE=72%-94%
for a in "$@"; do
  case $a in
    KIND=*|TOOL=*|ITERS=*|SLICE=*) printf -v "${a%%=*}" '%s' "${a#*=}" ;;
    *) echo "profile-write.sh: unknown argument '$a' (KIND=lat|bw TOOL=jperf|perftest|jperf,perftest ITERS=N SLICE=A%-B%)" >&2; exit 2 ;;
  esac
done
case $KIND in lat|bw) ;; *) echo "profile-write.sh: KIND must be lat or bw, not '$KIND'" >&2; exit 2 ;; esac
IFS=, read -ra TOOLS <<< "$TOOL"
for t in "${TOOLS[@]}"; do
  case $t in jperf|perftest) ;; *) echo "profile-write.sh: TOOL must be jperf, perftest or both (comma-separated), not '$TOOL'" >&2; exit 2 ;; esac
done
command -v perf > /dev/null || { echo "profile-write.sh: no perf; on the host: apt-get install linux-perf" >&2; exit 2; }
. "$LAB_REPO/lab/guest/lib.sh"
[ "$LAB_VMS" = 1 ] || { echo "profile-write.sh runs in the 1-guest lab (--vms 1)" >&2; exit 2; }
OUT=$LAB_RESULTS/profile; mkdir -p "$OUT"
SDEV=$LAB_DEV_RAIL0 SIP=$LAB_IP_RAIL0 CDEV=$LAB_PEER_DEV_RAIL0 CIP=$LAB_PEER_IP_RAIL0
SX=$(lab_gid_index "$SDEV" "$SIP") CX=$(lab_gid_index "$CDEV" "$CIP")
[ -n "$SX" ] && [ -n "$CX" ] || { echo "no RoCE v2 IPv4 GID for $SIP on $SDEV or $CIP on $CDEV"; lab_gids; exit 1; }
BASE_JAVA_OPTS=${JPERF_JAVA_OPTS:-}
profile_one() {
  DATA=/tmp/$KIND.$TOOL.perf.data
  if [ "$TOOL" = perftest ]; then
    server=("ib_write_$KIND") client=("ib_write_$KIND") wait_s=1
  else
    JPERF_JAVA_OPTS="$BASE_JAVA_OPTS -Xlog:class+load=info:file=$OUT/classes-%p.txt -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit"
    server=("$LAB_REPO/jperf" "write-$KIND" --cpu 0) client=("$LAB_REPO/jperf" "write-$KIND" --cpu 1) wait_s=12
  fi
  common=(-F -s 2 -n "$ITERS")
  echo "profile: $TOOL write_$KIND 2 B x $ITERS, server $SDEV gid $SX (vCPU 0) <- client $CDEV gid $CX (vCPU 1), slice $SLICE"
  timeout 900 taskset -c 0 "${server[@]}" -d "$SDEV" -x "$SX" "${common[@]}" > "$OUT/$KIND.$TOOL.server.txt" 2>&1 & sp=$!
  sleep "$wait_s"
  timeout 900 perf record -a --timestamp-boundary -F 999 -o "$DATA" -- \
    taskset -c 1 "${client[@]}" -d "$CDEV" -x "$CX" "${common[@]}" "$SIP" > "$OUT/$KIND.$TOOL.client.txt" 2> "$OUT/$KIND.$TOOL.perf.log"
  rc=$?
  wait $sp; rs=$?
  [ $rc = 0 ] && [ $rs = 0 ] || { echo "FAILED: client exit $rc, server exit $rs (outputs in $OUT)"; tail -5 "$OUT/$KIND.$TOOL.client.txt"; return 1; }
  report() { perf report -i "$DATA" --time "$SLICE" --sort "$1" --stdio 2> /dev/null | grep -v -e '^#' -e '^$'; }
  report comm,dso > "$OUT/$KIND.$TOOL.by-dso.txt"
  report comm,tid > "$OUT/$KIND.$TOOL.by-thread.txt"
  report comm,dso,sym > "$OUT/$KIND.$TOOL.by-symbol.txt"
  echo "== client result"; grep -E '^ +2 +' "$OUT/$KIND.$TOOL.client.txt"
  echo "== by command and dso"; head -12 "$OUT/$KIND.$TOOL.by-dso.txt"
  echo "== hottest symbols"; head -25 "$OUT/$KIND.$TOOL.by-symbol.txt"
  if [ "$TOOL" = jperf ]; then
    heap=$(cat "$OUT"/classes-*.txt | grep -c HeapMemorySegmentImpl)
    echo "== heap memory segment classes loaded by the two JVMs: $heap (0 keeps C1's segment accessors inlined)"
  fi
}
fail=0
for TOOL in "${TOOLS[@]}"; do profile_one || fail=1; done
exit $fail
