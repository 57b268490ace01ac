#!/bin/bash
# Side-by-side: jperf <-> jperf versus Debian's perftest <-> perftest on the same soft-RoCE path
# (1-guest lab: server on rxe0 / LAB_IP_RAIL0 pinned to vCPU 0, client on rxe1 pinned to vCPU 1).
#
#   lab/rdma-lab run --timeout 1500 lab/scripts/compare-perftest.sh [VAR=value ...]
#
# Settings come from the environment or from VAR=value arguments (rdma-lab does not pass the host's
# environment into the guest, so use arguments there), e.g.
#   lab/rdma-lab run --timeout 1500 lab/scripts/compare-perftest.sh RUNS=7 MEASURES=lat EXTRA_JPERF=-R EXTRA_PERFTEST=-R
#   RUNS=5             measured runs per tool and measure (plus WARMUP discarded runs of each, first)
#   WARMUP=1           discarded warm-up runs per tool and measure
#   MEASURES=bw,mr,lat which measures, in this order:
#     bw   write_bw 64 KiB average bandwidth     -s 65536 -n 2000 --report_gbits   Gb/s  higher is better
#     mr   write_bw 2 B message rate (MsgRate)   -s 2 -n 20000                     Mpps  higher is better
#     lat  write_lat 2 B t_typical and 99%       -s 2 -n 1000                      us    lower is better
#   EXTRA_JPERF= / EXTRA_PERFTEST=   extra flags for both ends of that tool (word-split), e.g. -R.
#                      With -R/--rdma_cm no -x is passed and the client starts after a fixed wait
#                      (CM_WAIT_PERFTEST=3 / CM_WAIT_JPERF=10 s) instead of polling the TCP port.
#   JAVA_OPTS=         extra JVM flags for every jperf process, appended to the lab's JPERF_JAVA_OPTS
#                      (word-split; a later -XX flag wins), e.g. JAVA_OPTS=-XX:TieredStopAtLevel=4 lifts
#                      the lab's C1-only default (stage2.sh) so hot loops get C2 as on a real host
#   PORT=18515         control port (-p, both tools)    RUN_TIMEOUT=120  per process (timeout -k 5)
#   LISTEN_WAIT=45     max seconds to wait for a server to listen (a JVM needs a few seconds)
#   NOISE_PCT=15       ratios within +-NOISE_PCT % are reported as "~ same (noise)"
#   ORDER=abba         abba: pair k runs jperf first when k is odd, perftest first when k is even, so a
#                      drift or a level change during a pair favours neither tool; alternate: jperf first
#                      in every pair (the order before 2026-12-03)
#   JPERF_PIN=process  process: each jperf JVM runs under taskset on its end's vCPU, exactly as perftest
#                      does (plus --cpu for the test thread), so both tools get the same CPU set.
#                      thread: only --cpu, the JVM's other threads may run on the peer's vCPU. In this
#                      2-vCPU guest that costs the peer: write_lat t_typical median of 5, same boot,
#                      thread 26.65 us, process 21.05 us, perftest 20.44 us.
# Both tools get -F (perftest: no CPU-frequency check abort; jperf: accepted, ignored) and -x <GID index
# of the RoCE v2 ::ffff:IPv4 GID, chosen by address>.
#
# Order per measure: the warm-up pair(s) jperf, perftest; then RUNS measured pairs, jperf first in pair
# 1, 3, 5, ... and perftest first in pair 2, 4, ... (ORDER=abba; same boot, one test at a time). A run
# fails (and is excluded) when either end exits non-zero (124 = timeout), the client prints no result
# row, or a value is 0 / inf / nan / not a number (perftest's CPU-clock calibration failing under TCG
# prints 0 bandwidth or inf latency). Values come from the client's table row (jperf prints
# perftest's table layout).
#
# Output: the table on stdout and in $LAB_RESULTS/compare.txt, JSON in $LAB_RESULTS/compare.json,
# raw outputs of every run in $LAB_RESULTS/compare/, rxe counters before/after there as well.
# Two ratios per row; for bandwidth and message rate > 1 means jperf is better, for latency < 1:
#   ratio   median(jperf) / median(perftest) over all valid runs;
#   paired  the median of the pair ratios jperf_k / perftest_k (pairs where both runs are valid), with a
#           distribution-free 95 % confidence interval for it (order statistics of the binomial sign
#           test; needs >= 6 pairs) and how many pairs jperf won. The two runs of a pair are seconds
#           apart, so a slow phase of the emulated host hits both: that is the figure to quote.
# Emulated CPUs (TCG): message rate and latency are bimodal (lab-facts.md "Noise"), the level is
# drawn per run, and a handful of runs cannot tell 5 % apart: the interval says what the runs can.
# Exit status: 0 if every selected measure has at least one valid run per tool, 1 otherwise, 2 on
# usage errors.
set -uo pipefail

for a in "$@"; do
  case $a in
    RUNS=*|WARMUP=*|MEASURES=*|ORDER=*|JPERF_PIN=*|EXTRA_JPERF=*|EXTRA_PERFTEST=*|PORT=*|RUN_TIMEOUT=*|LISTEN_WAIT=*|NOISE_PCT=*|CM_WAIT_PERFTEST=*|CM_WAIT_JPERF=*)
      printf -v "${a%%=*}" '%s' "${a#*=}" ;;
    JAVA_OPTS=*) JPERF_JAVA_OPTS="${JPERF_JAVA_OPTS:+$JPERF_JAVA_OPTS }${a#*=}"; export JPERF_JAVA_OPTS ;;
    -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "compare-perftest.sh: unknown argument '$a' (expected VAR=value, see the header)" >&2; exit 2 ;;
  esac
done
RUNS=${RUNS:-5} WARMUP=${WARMUP:-1} MEASURES=${MEASURES:-bw,mr,lat}
EXTRA_JPERF=${EXTRA_JPERF:-} EXTRA_PERFTEST=${EXTRA_PERFTEST:-}
PORT=${PORT:-18515} RUN_TIMEOUT=${RUN_TIMEOUT:-120} LISTEN_WAIT=${LISTEN_WAIT:-45} NOISE_PCT=${NOISE_PCT:-15}
CM_WAIT_PERFTEST=${CM_WAIT_PERFTEST:-3} CM_WAIT_JPERF=${CM_WAIT_JPERF:-10} JPERF_PIN=${JPERF_PIN:-process}
ORDER=${ORDER:-abba}
case $ORDER in abba|alternate) ;; *) echo "compare-perftest.sh: ORDER must be abba or alternate, got '$ORDER'" >&2; exit 2 ;; esac
case $JPERF_PIN in process|thread) ;; *) echo "compare-perftest.sh: JPERF_PIN must be process or thread, got '$JPERF_PIN'" >&2; exit 2 ;; esac
for v in RUNS WARMUP PORT RUN_TIMEOUT LISTEN_WAIT NOISE_PCT CM_WAIT_PERFTEST CM_WAIT_JPERF; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "compare-perftest.sh: $v must be a number, got '${!v}'" >&2; exit 2; }
done
((RUNS >= 1)) || { echo "compare-perftest.sh: RUNS must be >= 1" >&2; exit 2; }
IFS=, read -ra SEL <<< "$MEASURES"
for m in "${SEL[@]}"; do case $m in bw|mr|lat) ;; *) echo "compare-perftest.sh: unknown measure '$m' (bw, mr, lat)" >&2; exit 2 ;; esac; done
read -ra XJ <<< "$EXTRA_JPERF"; read -ra XP <<< "$EXTRA_PERFTEST"

: "${LAB_REPO:?run this inside the lab: lab/rdma-lab run lab/scripts/compare-perftest.sh}"
. "$LAB_REPO/lab/guest/lib.sh"
[ "${LAB_VMS:-1}" = 1 ] || { echo "compare-perftest.sh runs in the 1-guest lab (--vms 1)"; exit 2; }
J=$LAB_REPO/jperf
OUT=$LAB_RESULTS/compare; mkdir -p "$OUT"
SDEV=$LAB_DEV_RAIL0 SIP=$LAB_IP_RAIL0 CDEV=$LAB_PEER_DEV_RAIL0 CIP=$LAB_PEER_IP_RAIL0
SX=${LAB_GID_INDEX_RAIL0:-$(lab_gid_index "$SDEV" "$SIP")} CX=${LAB_PEER_GID_INDEX_RAIL0:-$(lab_gid_index "$CDEV" "$CIP")}
[ -n "$SX" ] && [ -n "$CX" ] || { echo "no RoCE v2 IPv4 GID for $SIP on $SDEV or $CIP on $CDEV"; lab_gids; exit 1; }
if [ "$(nproc)" -ge 2 ]; then SPIN=(taskset -c 0) CPIN=(taskset -c 1)
else echo "compare-perftest.sh: needs 2 vCPUs (server and client must not share one)"; exit 2; fi
printf -v PORTHEX '%04X' "$PORT"

has_cm() { local a; for a in "$@"; do case $a in -R|--rdma_cm) return 0 ;; esac; done; return 1; }
# port_state LISTEN|BUSY: LISTEN = a listening socket on PORT; BUSY = any socket on local PORT except TIME_WAIT
port_state() {
  local f sl la ra st rest
  for f in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$f" ] || continue
    while read -r sl la ra st rest; do
      [ "${la##*:}" = "$PORTHEX" ] || continue
      if [ "$1" = LISTEN ]; then [ "$st" = 0A ] && return 0; else [ "$st" != 06 ] && return 0; fi
    done < "$f"
  done
  return 1
}
kill_tree() { # PID SIGNAL: the process and all its descendants (children first found via /proc)
  local p=$1 sig=$2 f k kids
  kill -STOP "$p" 2> /dev/null # no new children while we look
  for f in /proc/"$p"/task/*/children; do
    kids=(); [ -r "$f" ] && read -ra kids < "$f"
    for k in "${kids[@]}"; do kill_tree "$k" "$sig"; done
  done
  kill -"$sig" "$p" 2> /dev/null; kill -CONT "$p" 2> /dev/null
}
alive_wait() { # PID SECONDS -> 0 if it ended within SECONDS
  local p=$1 n=$(($2 * 10))
  while ((n-- > 0)); do kill -0 "$p" 2> /dev/null || return 0; sleep 0.1; done
  ! kill -0 "$p" 2> /dev/null
}
port_free_wait() { # wait until nothing but TIME_WAIT uses PORT; kill listeners left behind by anything
  local n=300 pids p
  while port_state BUSY; do
    if ((n == 150)); then # 15 s: something is stuck on the port, kill it by pid
      pids=$(ss -Htlnp "sport = :$PORT" 2> /dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2)
      for p in $pids; do echo "  killing stray process $p on port $PORT: $(tr '\0' ' ' < /proc/$p/cmdline 2> /dev/null | cut -c1-100)"; kill_tree "$p" KILL; done
    fi
    ((n-- > 0)) || { echo "  WARNING: port $PORT still busy after 30 s"; ss -Htanp "sport = :$PORT" 2> /dev/null; return 1; }
    sleep 0.1
  done
}
isnum() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]] && [[ ${1%%[eE]*} =~ [1-9] ]]; } # a positive finite number

# Results: V[metric,tool,i] value (or empty), S[metric,tool,i] "ok" or the failure reason; i=0..WARMUP-1 warm-up
declare -A V S
# run_one MEASURE TOOL LABEL IDX
run_one() {
  local m=$1 tool=$2 label=$3 i=$4 kind size iters flags=() sx=(-x "$SX") cx=(-x "$CX") extra scmd ccmd
  case $m in
    bw) kind=bw size=65536 iters=2000 flags=(-s 65536 -n 2000 --report_gbits) ;;
    mr) kind=bw size=2 iters=20000 flags=(-s 2 -n 20000) ;;
    lat) kind=lat size=2 iters=1000 flags=(-s 2 -n 1000) ;;
  esac
  if [ "$tool" = jperf ]; then extra=("${XJ[@]}"); else extra=("${XP[@]}"); fi
  has_cm "${extra[@]}" && sx=() cx=()
  if [ "$tool" = jperf ]; then
    # --cpu pins jperf's test thread; with JPERF_PIN=process (the default) taskset confines the whole
    # JVM to that vCPU as well, as it confines perftest (see the header).
    scmd=("$J" "write-$kind" -d "$SDEV" "${sx[@]}" -p "$PORT" -F --cpu 0 "${flags[@]}" "${extra[@]}")
    ccmd=("$J" "write-$kind" -d "$CDEV" "${cx[@]}" -p "$PORT" -F --cpu 1 "${flags[@]}" "${extra[@]}" "$SIP")
  else
    scmd=("ib_write_$kind" -d "$SDEV" "${sx[@]}" -p "$PORT" -F "${flags[@]}" "${extra[@]}")
    ccmd=("ib_write_$kind" -d "$CDEV" "${cx[@]}" -p "$PORT" -F "${flags[@]}" "${extra[@]}" "$SIP")
  fi
  local base=$OUT/$m.$tool.$label t0 t1 sp rc=0 rs=0 why= line n
  port_free_wait
  t0=$(lab_uptime)
  local spin=("${SPIN[@]}") cpin=("${CPIN[@]}")
  [ "$tool" = jperf ] && [ "$JPERF_PIN" = thread ] && spin=() cpin=()
  { echo "# ${spin[*]} ${scmd[*]}"; } > "$base.server.txt"
  timeout -k 5 "$RUN_TIMEOUT" "${spin[@]}" "${scmd[@]}" >> "$base.server.txt" 2>&1 & sp=$!
  # wait until the server is ready: TCP exchange -> its port listens; rdma_cm -> fixed wait
  if has_cm "${extra[@]}"; then
    if [ "$tool" = jperf ]; then sleep "$CM_WAIT_JPERF"; else sleep "$CM_WAIT_PERFTEST"; fi
  else
    n=$((LISTEN_WAIT * 10))
    while ! port_state LISTEN && kill -0 "$sp" 2> /dev/null && ((n-- > 0)); do sleep 0.1; done
    port_state LISTEN || why="server not listening after ${LISTEN_WAIT}s"
  fi
  if [ -z "$why" ]; then
    { echo "# ${cpin[*]} ${ccmd[*]}"; } > "$base.client.txt"
    timeout -k 5 "$RUN_TIMEOUT" "${cpin[@]}" "${ccmd[@]}" >> "$base.client.txt" 2>&1; rc=$?
  else
    echo "# client not started: $why" > "$base.client.txt"
  fi
  # the server should end on its own right after the client; otherwise it is a stray: kill it
  if ! alive_wait "$sp" 20; then
    echo "  server still running 20 s after the client ended: killing it" >> "$base.server.txt"
    kill_tree "$sp" TERM; alive_wait "$sp" 5 || kill_tree "$sp" KILL
    [ -n "$why" ] || why="server did not end"
  fi
  wait "$sp"; rs=$?
  t1=$(lab_uptime)
  line=$(grep -E "^ *$size +$iters +" "$base.client.txt" | tail -1)
  local a b c d e f g h k
  read -r a b c d e f g h k <<< "$line"
  local v1= v2= m1 m2
  if [ "$kind" = bw ]; then m1=$m; if [ "$m" = bw ]; then v1=$d; else v1=$e; fi # bytes iters BW_peak BW_avg MsgRate
  else m1=lat_typ m2=lat_p99 v1=$e v2=$h; fi # bytes iters t_min t_max t_typical t_avg t_stdev 99% 99.9%
  [ -n "$why" ] || { ((rc == 0)) || why="client rc=$rc"; }
  [ -n "$why" ] || { ((rs == 0)) || why="server rc=$rs"; }
  [ -n "$why" ] || [ -n "$line" ] || why="no result row"
  local st1=ok st2=ok
  if [ -n "$why" ]; then st1=$why st2=$why
  else
    isnum "$v1" || st1="bad value '${v1:-?}'"
    [ "$kind" = lat ] && { isnum "$v2" || st2="bad value '${v2:-?}'"; }
  fi
  V[$m1,$tool,$i]=$v1 S[$m1,$tool,$i]=$st1
  [ "$kind" = lat ] && V[$m2,$tool,$i]=$v2 S[$m2,$tool,$i]=$st2
  local msg
  if [ "$kind" = bw ]; then msg="$m1=$v1 [$st1]"; else msg="t_typical=$v1 [$st1] 99%=$v2 [$st2]"; fi
  printf '  %-4s %-8s %-7s %s  (%.1f s)\n' "$m" "$tool" "$label" "$msg" "$(echo "$t1 - $t0" | bc)"
  [ "$st1" = ok ] && [ "$st2" = ok ] || { echo "    --- client output tail ($base.client.txt):"; tail -4 "$base.client.txt" | sed 's/^/    | /'; }
}

T_START=$(lab_uptime)
PT_VER=$(ib_write_bw --version 2>&1 | sed -n 's/^Version: *//p' | head -1)
J_VER=$("$J" --version 2>&1 | head -1)
MTU=$(ibv_devinfo -d "$SDEV" 2> /dev/null | awk '/active_mtu/{print $2; exit}')
rdma statistic show link "$SDEV/1" > "$OUT/rxe-counters.before.txt" 2>&1; rdma statistic show link "$CDEV/1" >> "$OUT/rxe-counters.before.txt" 2>&1
HDR="compare-perftest: jperf ($J_VER) vs perftest $PT_VER; kernel $(uname -r), 1 guest, $(nproc) vCPUs, scenario ${LAB_SCENARIO:-?}, active_mtu $MTU
  server $SDEV $SIP gid $SX on vCPU 0, client $CDEV $CIP gid $CX on vCPU 1, port $PORT; RUNS=$RUNS (+$WARMUP warm-up each, discarded), order $ORDER
  extra jperf: '${EXTRA_JPERF}'  extra perftest: '${EXTRA_PERFTEST}'  jperf pinning: $JPERF_PIN (JPERF_JAVA_OPTS: ${JPERF_JAVA_OPTS:-none})"
echo "$HDR"

TOOLS=(jperf perftest)
for m in "${SEL[@]}"; do
  echo "=== $m"
  for ((i = 0; i < WARMUP + RUNS; i++)); do
    if ((i < WARMUP)); then label=warmup$((i + 1)); else label=run$((i - WARMUP + 1)); fi
    order=("${TOOLS[@]}")
    # abba: measured pair k (1-based) runs jperf first when k is odd; warm-up pairs run jperf first
    [ "$ORDER" = abba ] && ((i >= WARMUP && (i - WARMUP) % 2 == 1)) && order=(perftest jperf)
    for t in "${order[@]}"; do run_one "$m" "$t" "$label" "$i"; done
  done
done
port_free_wait
rdma statistic show link "$SDEV/1" > "$OUT/rxe-counters.after.txt" 2>&1; rdma statistic show link "$CDEV/1" >> "$OUT/rxe-counters.after.txt" 2>&1

# ---- report ----
declare -A NAME UNIT BETTER
NAME[bw]="write_bw 64KiB BW avg" UNIT[bw]=Gb/s BETTER[bw]=higher
NAME[mr]="write_bw 2B MsgRate" UNIT[mr]=Mpps BETTER[mr]=higher
NAME[lat_typ]="write_lat 2B t_typical" UNIT[lat_typ]=us BETTER[lat_typ]=lower
NAME[lat_p99]="write_lat 2B 99%" UNIT[lat_p99]=us BETTER[lat_p99]=lower
METRICS=()
for m in "${SEL[@]}"; do if [ "$m" = lat ]; then METRICS+=(lat_typ lat_p99); else METRICS+=("$m"); fi; done
# stats VALUES... -> "n median min max" (n=0 -> "0 - - -")
stats() { printf '%s\n' "$@" | awk 'NF{v[++n]=$1} END{if(!n){print "0 - - -";exit} for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(v[j]<v[i]){t=v[i];v[i]=v[j];v[j]=t}
  med=(n%2)?v[(n+1)/2]:(v[n/2]+v[n/2+1])/2; printf "%d %.6g %.6g %.6g\n", n, med, v[1], v[n]}'; }
jstr() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
fail=0
TABLE=$(printf '%-24s %-5s %-9s %-4s %-10s %-s\n' measure unit tool n median "spread  runs in order (x = failed, excluded)  [warm-up, discarded]")
JM=()
for mt in "${METRICS[@]}"; do
  declare -A MED=()
  jt=()
  for t in "${TOOLS[@]}"; do
    vals=() shown=() warm=() jr=() jw=()
    for ((i = 0; i < WARMUP + RUNS; i++)); do
      v=${V[$mt,$t,$i]-} st=${S[$mt,$t,$i]-missing}
      if [ "$st" = ok ]; then cell=$v jv=$v; elif [[ $st == "bad value"* ]]; then cell="x($v)" jv=null; else cell="x(${st// /_})" jv=null; fi
      entry="{\"value\":$jv,\"raw\":$(jstr "$v"),\"status\":$(jstr "$st")}"
      if ((i < WARMUP)); then warm+=("$cell"); jw+=("$entry")
      else shown+=("$cell"); jr+=("$entry"); [ "$st" = ok ] && vals+=("$v"); fi
    done
    read -r n med mn mx < <(stats "${vals[@]}")
    MED[$t]=$med
    spread=-
    ((n > 0)) && spread=$(awk -v a="$mn" -v b="$mx" -v m="$med" 'BEGIN{printf "%.0f%%", (b-a)/m*100}')
    ((n > 0)) || fail=1
    TABLE+=$'\n'$(printf '%-24s %-5s %-9s %-4s %-10s %-7s %s  [%s]' "${NAME[$mt]}" "${UNIT[$mt]}" "$t" "$n/$RUNS" "$med" "$spread" "${shown[*]}" "${warm[*]}")
    jmed=null; ((n > 0)) && jmed=$med
    jt+=("$(jstr "$t"):{\"median\":$jmed,\"valid\":$n,\"min\":$( ((n > 0)) && echo "$mn" || echo null),\"max\":$( ((n > 0)) && echo "$mx" || echo null),\"runs\":[$(IFS=,; echo "${jr[*]}")],\"warmup\":[$(IFS=,; echo "${jw[*]}")]}")
  done
  ratio=- verdict="n/a (no valid runs for a tool)" jratio=null
  if [ "${MED[jperf]}" != - ] && [ "${MED[perftest]}" != - ]; then
    read -r ratio verdict < <(awk -v j="${MED[jperf]}" -v p="${MED[perftest]}" -v better="${BETTER[$mt]}" -v noise="$NOISE_PCT" 'BEGIN{
      r=j/p; d=(r-1)*100; good=(better=="higher")?(d>0):(d<0);
      if (d<noise && d>-noise) v="~ same (within " noise "%)"; else v=(good?"jperf better":"jperf worse");
      printf "%.3f %s\n", r, v}')
    jratio=$ratio
  fi
  TABLE+=$'\n'$(printf '%-24s %-5s %-9s %s' "" "" "ratio" "jperf/perftest = $ratio  (${BETTER[$mt]} is better: $verdict)")
  # paired: pair k = the k-th measured run of each tool (seconds apart), both valid
  pairs=()
  for ((i = WARMUP; i < WARMUP + RUNS; i++)); do
    [ "${S[$mt,jperf,$i]-}" = ok ] && [ "${S[$mt,perftest,$i]-}" = ok ] && pairs+=("${V[$mt,jperf,$i]} ${V[$mt,perftest,$i]}")
  done
  read -r pn pmed plo phi pcov pwins < <(printf '%s\n' "${pairs[@]}" | awk -v BETTER="${BETTER[$mt]}" -f "$LAB_REPO/lab/scripts/paired-ratio.awk")
  if [ "$plo" = - ]; then pci="no 95% interval with $pn pairs (needs >= 6)"; else pci="${pcov}% CI [$plo, $phi]"; fi
  TABLE+=$'\n'$(printf '%-24s %-5s %-9s %s' "" "" "paired" "median of $pn pair ratios = $pmed, $pci; jperf better in $pwins/$pn pairs")
  jpaired="{\"pairs\":$pn,\"median_ratio\":$( [ "$pmed" = - ] && echo null || echo "$pmed"),\"ci_low\":$( [ "$plo" = - ] && echo null || echo "$plo"),\"ci_high\":$( [ "$phi" = - ] && echo null || echo "$phi"),\"ci_coverage_pct\":$( [ "$pcov" = - ] && echo null || echo "$pcov"),\"jperf_better_pairs\":$pwins}"
  JM+=("{\"id\":$(jstr "$mt"),\"name\":$(jstr "${NAME[$mt]}"),\"unit\":$(jstr "${UNIT[$mt]}"),\"better\":$(jstr "${BETTER[$mt]}"),\"ratio_jperf_over_perftest\":$jratio,\"verdict\":$(jstr "$verdict"),\"paired\":$jpaired,\"tools\":{$(IFS=,; echo "${jt[*]}")}}")
  unset MED
done
T_END=$(lab_uptime)
FOOT="ratio = median(jperf)/median(perftest); paired = median of jperf_k/perftest_k over the pairs, with a sign-test
confidence interval (order statistics). Bandwidth/message rate: >1 = jperf better; latency: <1 = jperf better.
Under TCG message rate and latency are bimodal, the level drawn per run; 'spread' = (max-min)/median of the valid runs.
Raw outputs: $OUT   guest time for all runs: $(echo "$T_END - $T_START" | bc) s"
REPORT="$HDR

$TABLE

$FOOT"
echo; echo "$REPORT"
echo "$REPORT" > "$LAB_RESULTS/compare.txt"
{
  printf '{"tool":"compare-perftest","date":%s,"kernel":%s,"jperf_version":%s,"perftest_version":%s,' \
    "$(jstr "$(date -u +%FT%TZ)")" "$(jstr "$(uname -r)")" "$(jstr "$J_VER")" "$(jstr "$PT_VER")"
  printf '"runs":%d,"warmup":%d,"measures_selected":%s,"extra_jperf":%s,"extra_perftest":%s,"noise_pct":%d,' \
    "$RUNS" "$WARMUP" "$(jstr "$MEASURES")" "$(jstr "$EXTRA_JPERF")" "$(jstr "$EXTRA_PERFTEST")" "$NOISE_PCT"
  printf '"jperf_pin":%s,"jperf_java_opts":%s,"setup":{"server":{"dev":%s,"ip":%s,"gid_index":%s,"cpu":0},"client":{"dev":%s,"ip":%s,"gid_index":%s,"cpu":1},"port":%d,"active_mtu":%s,"scenario":%s},' \
    "$(jstr "$JPERF_PIN")" "$(jstr "${JPERF_JAVA_OPTS:-}")" "$(jstr "$SDEV")" "$(jstr "$SIP")" "$SX" "$(jstr "$CDEV")" "$(jstr "$CIP")" "$CX" "$PORT" "${MTU:-null}" "$(jstr "${LAB_SCENARIO:-}")"
  printf '"order":"per measure: %d warm-up pair(s) jperf,perftest, then %d measured pairs (%s)",' "$WARMUP" "$RUNS" "$ORDER"
  printf '"measures":[%s]}\n' "$(IFS=,; echo "${JM[*]}")"
} > "$LAB_RESULTS/compare.json"
echo "written: $LAB_RESULTS/compare.txt, $LAB_RESULTS/compare.json"
exit $fail
