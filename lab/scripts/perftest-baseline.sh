#!/bin/bash
# Peer baseline: Debian's perftest (ib_write_bw, ib_write_lat) between rxe0 and rxe1 in the 1-guest lab.
#   lab/rdma-lab run lab/scripts/perftest-baseline.sh [ITERS_BW=1000] [ITERS_LAT=1000]
# Four measurements, strictly one at a time (concurrent runs break perftest's clock check under TCG):
#   write_bw  TCP exchange (-x <RoCE v2 IPv4 GID index, chosen by address>)  and  rdma_cm (-R)
#   write_lat TCP exchange                                                  and  rdma_cm (-R)
# Server = rxe0 (LAB_IP_RAIL0) pinned to vCPU 0, client = rxe1 (LAB_PEER_IP_RAIL0) pinned to vCPU 1
# (never both on one vCPU: busy-polling ping-pong collapses). Raw outputs: $LAB_RESULTS/perftest/.
# Exit status 0 only if all four produced a non-zero result (perftest printing 0 = failed measurement).
# Figures are from emulated CPUs: compare tools in the same boot, alternating, medians of >= 5 runs.
set -uo pipefail
. "$LAB_REPO/lab/guest/lib.sh"
[ "$LAB_VMS" = 1 ] || { echo "perftest-baseline.sh runs in the 1-guest lab (--vms 1)"; exit 2; }
ITERS_BW=${1:-1000} ITERS_LAT=${2:-1000} SIZE_BW=65536 SIZE_LAT=2 TO=180
OUT=$LAB_RESULTS/perftest; mkdir -p "$OUT"
SDEV=$LAB_DEV_RAIL0 SIP=$LAB_IP_RAIL0 CDEV=$LAB_PEER_DEV_RAIL0 CIP=$LAB_PEER_IP_RAIL0
SX=$(lab_gid_index "$SDEV" "$SIP") CX=$(lab_gid_index "$CDEV" "$CIP")
[ -n "$SX" ] && [ -n "$CX" ] || { echo "no RoCE v2 IPv4 GID for $SIP on $SDEV or $CIP on $CDEV"; lab_gids; exit 1; }
SPIN= CPIN=
if [ "$(nproc)" -ge 2 ]; then SPIN="taskset -c 0" CPIN="taskset -c 1"; else echo "WARNING: 1 vCPU, no pinning"; fi
echo "perftest baseline: server $SDEV $SIP gid $SX (vCPU 0) <- client $CDEV $CIP gid $CX (vCPU 1); active_mtu $(ibv_devinfo -d "$SDEV" | awk '/active_mtu/{print $2}')"
echo "perftest $(ib_write_bw --version 2>&1 | head -1)"
SUMMARY=() fail=0
# pair NAME SIZE ITERS KIND(bw|lat) SERVER_ARGS... -- CLIENT_ARGS...
pair() {
  local name=$1 size=$2 iters=$3 kind=$4; shift 4
  local sargs=() cargs=() tool=ib_write_$kind
  while [ "$1" != -- ]; do sargs+=("$1"); shift; done; shift; cargs=("$@")
  local t0; t0=$(lab_uptime)
  timeout $TO $SPIN $tool "${sargs[@]}" > "$OUT/$name.server.txt" 2>&1 & local sp=$!
  sleep 2
  timeout $TO $CPIN $tool "${cargs[@]}" > "$OUT/$name.client.txt" 2>&1; local rc=$?
  wait $sp; local rs=$?
  local line; line=$(grep -E "^ *$size +$iters " "$OUT/$name.client.txt" | tail -1)
  local res=FAILED val=
  if [ $rc = 0 ] && [ $rs = 0 ] && [ -n "$line" ]; then
    if [ $kind = bw ]; then # bytes iters BW_peak BW_avg MsgRate
      read -r _ _ _ val mpps _ <<< "$line"
      [ "$(echo "$val > 0" | bc)" = 1 ] && res=$(printf 'avg %s Gb/s, %s Mpps' "$val" "$mpps")
    else # bytes iters t_min t_max t_typical t_avg t_stdev 99% 99.9%
      local tmin tmax ttyp tavg tstd p99 p999; read -r _ _ tmin tmax ttyp tavg tstd p99 p999 <<< "$line"
      val=$ttyp
      [[ $ttyp =~ ^[0-9.]+$ ]] && [ "$(echo "$ttyp > 0" | bc)" = 1 ] && res=$(printf 't_typical %s us, t_min %s, t_avg %s, 99%% %s us' "$ttyp" "$tmin" "$tavg" "$p99")
    fi
  fi
  [ "$res" = FAILED ] && { fail=1; echo "--- $name FAILED (client rc=$rc, server rc=$rs); client output tail:"; tail -6 "$OUT/$name.client.txt"; }
  SUMMARY+=("$(printf '%-16s %6s B x %-6s %s  (%.1fs)' "$name" "$size" "$iters" "$res" "$(echo "$(lab_uptime) - $t0" | bc)")")
  echo "${SUMMARY[-1]}"
}
pair write_bw_tcp    $SIZE_BW  $ITERS_BW  bw  -d $SDEV -x $SX -F --report_gbits -s $SIZE_BW -n $ITERS_BW -- -d $CDEV -x $CX -F --report_gbits -s $SIZE_BW -n $ITERS_BW $SIP
pair write_bw_rdmacm $SIZE_BW  $ITERS_BW  bw  -d $SDEV -R -F --report_gbits -s $SIZE_BW -n $ITERS_BW -- -d $CDEV -R -F --report_gbits -s $SIZE_BW -n $ITERS_BW $SIP
pair write_lat_tcp   $SIZE_LAT $ITERS_LAT lat -d $SDEV -x $SX -F -s $SIZE_LAT -n $ITERS_LAT -- -d $CDEV -x $CX -F -s $SIZE_LAT -n $ITERS_LAT $SIP
pair write_lat_rdmacm $SIZE_LAT $ITERS_LAT lat -d $SDEV -R -F -s $SIZE_LAT -n $ITERS_LAT -- -d $CDEV -R -F -s $SIZE_LAT -n $ITERS_LAT $SIP
rdma statistic show link "$SDEV/1" > "$OUT/rxe-counters.txt" 2>&1; rdma statistic show link "$CDEV/1" >> "$OUT/rxe-counters.txt" 2>&1
{ echo "# perftest baseline ($(date -u +%FT%TZ), kernel $(uname -r), scenario $LAB_SCENARIO)"; printf '%s\n' "${SUMMARY[@]}"; } > "$OUT/summary.txt"
echo "=== summary ($( [ $fail = 0 ] && echo ok || echo 'FAILED measurements' )); raw outputs in $OUT"
printf '%s\n' "${SUMMARY[@]}"
exit $fail
