#!/bin/bash
# Side-by-side: jperf <-> jperf versus Debian's perftest <-> perftest on the same soft-RoCE path,
# with jperf started the ways a user starts it, each measured against perftest in the same rounds.
# Two set-ups:
#   --vms 1  one guest, 2 vCPUs: server on rxe0 / LAB_IP_RAIL0 on vCPU 0, client on rxe1 on vCPU 1
#   --vms 2  two guests, 1 vCPU each: server on B's rxe0 (B runs each server as a job A queues, see
#            lab_job_agent in lab/guest/lib.sh), client on A's rxe0, over rail0. No JVM has a second
#            vCPU, so the emulation fault (lab/README.md: a torn translation of code one vCPU patches
#            while another runs it) cannot happen here by construction.
#
#   lab/rdma-lab run --timeout 1500 lab/scripts/compare-perftest.sh [VAR=value ...]
#   lab/rdma-lab run --vms 2 --timeout 2400 lab/scripts/compare-perftest.sh [VAR=value ...]
#
# Settings come from the environment or from VAR=value arguments (rdma-lab does not pass the host's
# environment into the guest, so use arguments there), e.g.
#   lab/rdma-lab run --timeout 1500 lab/scripts/compare-perftest.sh RUNS=7 MEASURES=lat WAYS=jar
#   RUNS=5             measured rounds per measure (plus WARMUP discarded rounds, first)
#   WARMUP=1           discarded warm-up rounds per measure
#   MEASURES=bw,mr,lat which measures, in this order:
#     bw   write_bw 64 KiB average bandwidth     -s 65536 -n 2000 --report_gbits   Gb/s  higher is better
#     mr   write_bw 2 B message rate (MsgRate)   -s 2 -n 20000                     Mpps  higher is better
#     lat  write_lat 2 B t_typical and 99%       -s 2 -n 1000                      us    lower is better
#     rbw  read_bw 64 KiB average bandwidth      -s 65536 -n 1000 --report_gbits   Gb/s  higher is better
#     sbw  send_bw 64 KiB average bandwidth      -s 65536 -n 2000 --report_gbits   Gb/s  higher is better
#     slat send_lat 2 B t_typical and 99%        -s 2 -n 1000                      us    lower is better
#     rlat read_lat 2 B t_typical and 99%        -s 2 -n 1000                      us    lower is better
#     alat atomic_lat 8 B (fetch&add) t_typical and 99%   -n 1000                  us    lower is better
#   WAYS=launcher,jar,embedded   how jperf is started (each is a tool of its own in every round):
#     launcher   the ./jperf script:  $LAB_REPO/jperf write-bw ...       (JPERF_JAVA_OPTS empty)
#     jar        java -jar $LAB_REPO/cli/target/jperf.jar write-bw ...
#     embedded   a Java application calling the library's PerfTest API (lab/scripts/EmbeddedWrite.java,
#                compiled here first): java --enable-native-access=ALL-UNNAMED -cp jperf.jar:DIR EmbeddedWrite
#                (that flag is what every application that embeds jperf must pass; the README says so)
#     before     java -jar $JAR_BEFORE ...: another build of jperf (e.g. the main branch before a change),
#                measured in the same rounds to show a change before/after in one boot; needs JAR_BEFORE=
#     Every way gets jperf's own --cpu 0 (server) / --cpu 1 (client), as perftest gets taskset -c 0 / 1,
#     and no JVM flag at all: the lab's JPERF_JAVA_OPTS is cleared, each JVM runs in the results folder
#     so a crash leaves its hs_err report there (the JVM's default place).
#   JAVA_OPTS=         JVM flags for every jperf process (an experiment; named in the header and JSON)
#   JPERF_PIN=none     none: jperf places its own threads (its --cpu option). process: each jperf JVM
#                      also runs under taskset on its end's vCPU, as perftest does (the lab's way until
#                      2026-12: a launch option no user has, kept for comparison)
#   RDMA_CM=off        on: both tools run with -R (RDMA CM); the client starts after a fixed wait
#                      (CM_WAIT_PERFTEST=3 / CM_WAIT_JPERF=10 s) instead of polling the TCP port.
#                      jperf -R against perftest -R needs jperf's perftest-compatible -R: each tool
#                      talks to its own kind here, so this mode measures both tools' CM set-up too
#   EXTRA_JPERF= / EXTRA_PERFTEST=   extra flags for both ends of that tool (word-split)
#   PORT=18515         control port (-p, both tools)    RUN_TIMEOUT=120  per process (timeout -k 5; --vms 2: 360)
#   LISTEN_WAIT=45     max seconds to wait for a server to listen (a JVM needs a few seconds; --vms 2: 180)
#   NOISE_PCT=15       ratios within +-NOISE_PCT % are reported as "~ same (noise)"
#   ORDER=abba         abba: round k runs the tools in the order WAYS..., perftest when k is odd and in
#                      the reverse order when k is even, so a drift or a level change during a round
#                      favours no tool; alternate: the same order in every round
# Both tools get -F (perftest: no CPU-frequency check abort; jperf: accepted, ignored) and -x <GID index
# of the RoCE v2 ::ffff:IPv4 GID, chosen by address>.
#
# A run fails (and is excluded) when either end exits non-zero (124 = timeout), the client prints no
# result row, or a value is 0 / inf / nan / not a number (perftest's CPU-clock calibration failing
# under TCG prints 0 bandwidth or inf latency). Values come from the client's table row (jperf
# prints perftest's table layout). A jperf JVM that died from a signal (an hs_err report in the
# results folder) is counted and named in the report: a lost result, never hidden.
#
# Output: the table on stdout and in $LAB_RESULTS/compare.txt, JSON in $LAB_RESULTS/compare.json,
# raw outputs of every run in $LAB_RESULTS/compare/, rxe counters before/after there as well.
# Per jperf way and metric, two ratios; for bandwidth and message rate > 1 means jperf is better, for
# latency < 1:
#   ratio   median(jperf way) / median(perftest) over all valid runs;
#   paired  the median of the round ratios jperf_k / perftest_k (rounds where both runs are valid), with
#           a distribution-free 95 % confidence interval for it (order statistics of the binomial sign
#           test; needs >= 6 rounds) and how many rounds jperf won. The runs of a round are seconds
#           apart, so a slow phase of the emulated host hits all of them: that is the figure to quote.
#   levels  (latency) TCG draws each run's level (~20 or ~35 us for write_lat) per run, for every tool
#           alike, so ratio and paired swing with the draw: every tool's runs split into the two
#           levels (lab/scripts/levels.awk), each tool's count and median at each, and the ratio of
#           the fast-level medians, the comparison at the same level.
# Exit status: 0 if every selected measure has at least one valid run per tool, 1 otherwise, 2 on
# usage errors.
set -uo pipefail

for a in "$@"; do
  case $a in
    RUNS=*|WARMUP=*|MEASURES=*|WAYS=*|JAR_BEFORE=*|ORDER=*|JPERF_PIN=*|RDMA_CM=*|EXTRA_JPERF=*|EXTRA_PERFTEST=*|PORT=*|RUN_TIMEOUT=*|LISTEN_WAIT=*|NOISE_PCT=*|CM_WAIT_PERFTEST=*|CM_WAIT_JPERF=*|JAVA_OPTS=*)
      printf -v "${a%%=*}" '%s' "${a#*=}" ;;
    -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "compare-perftest.sh: unknown argument '$a' (expected VAR=value, see the header)" >&2; exit 2 ;;
  esac
done
RUNS=${RUNS:-5} WARMUP=${WARMUP:-1} MEASURES=${MEASURES:-bw,mr,lat} WAYS=${WAYS:-launcher,jar,embedded}
EXTRA_JPERF=${EXTRA_JPERF:-} EXTRA_PERFTEST=${EXTRA_PERFTEST:-} JAVA_OPTS=${JAVA_OPTS:-} RDMA_CM=${RDMA_CM:-off} JAR_BEFORE=${JAR_BEFORE:-}
# one vCPU per guest (--vms 2): a JVM takes 50-70 s to listen and a 64 KiB bandwidth run ~35 s on the rail
if [ "${LAB_VMS:-1}" = 2 ]; then RUN_TIMEOUT=${RUN_TIMEOUT:-360} LISTEN_WAIT=${LISTEN_WAIT:-180}; fi
PORT=${PORT:-18515} RUN_TIMEOUT=${RUN_TIMEOUT:-120} LISTEN_WAIT=${LISTEN_WAIT:-45} NOISE_PCT=${NOISE_PCT:-15}
CM_WAIT_PERFTEST=${CM_WAIT_PERFTEST:-3} CM_WAIT_JPERF=${CM_WAIT_JPERF:-10} JPERF_PIN=${JPERF_PIN:-none}
ORDER=${ORDER:-abba}
case $ORDER in abba|alternate) ;; *) echo "compare-perftest.sh: ORDER must be abba or alternate, got '$ORDER'" >&2; exit 2 ;; esac
case $JPERF_PIN in none|process) ;; *) echo "compare-perftest.sh: JPERF_PIN must be none or process, got '$JPERF_PIN'" >&2; exit 2 ;; esac
case $RDMA_CM in on) EXTRA_JPERF="-R${EXTRA_JPERF:+ $EXTRA_JPERF}" EXTRA_PERFTEST="-R${EXTRA_PERFTEST:+ $EXTRA_PERFTEST}" ;; off) ;;
  *) echo "compare-perftest.sh: RDMA_CM must be on or off, got '$RDMA_CM'" >&2; exit 2 ;; esac
for v in RUNS WARMUP PORT RUN_TIMEOUT LISTEN_WAIT NOISE_PCT CM_WAIT_PERFTEST CM_WAIT_JPERF; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "compare-perftest.sh: $v must be a number, got '${!v}'" >&2; exit 2; }
done
((RUNS >= 1)) || { echo "compare-perftest.sh: RUNS must be >= 1" >&2; exit 2; }
IFS=, read -ra SEL <<< "$MEASURES"
for m in "${SEL[@]}"; do case $m in bw|mr|lat|rbw|sbw|slat|rlat|alat) ;; *) echo "compare-perftest.sh: unknown measure '$m' (bw, mr, lat, rbw, sbw, slat, rlat, alat)" >&2; exit 2 ;; esac; done
IFS=, read -ra WAY_LIST <<< "$WAYS"
((${#WAY_LIST[@]} >= 1)) || { echo "compare-perftest.sh: WAYS names at least one way" >&2; exit 2; }
for w in "${WAY_LIST[@]}"; do case $w in launcher|jar|embedded) ;; before) [ -f "$JAR_BEFORE" ] || { echo "compare-perftest.sh: WAYS=...,before needs JAR_BEFORE=<a jperf.jar>" >&2; exit 2; } ;;
  *) echo "compare-perftest.sh: unknown way '$w' (launcher, jar, embedded, before)" >&2; exit 2 ;; esac; done
read -ra XJ <<< "$EXTRA_JPERF"; read -ra XP <<< "$EXTRA_PERFTEST"; read -ra XJVM <<< "$JAVA_OPTS"

: "${LAB_REPO:?run this inside the lab: lab/rdma-lab run lab/scripts/compare-perftest.sh}"
. "$LAB_REPO/lab/guest/lib.sh"
VMS=${LAB_VMS:-1}
case $VMS in 1|2) ;; *) echo "compare-perftest.sh runs with --vms 1 or --vms 2"; exit 2 ;; esac
JAR=$LAB_REPO/cli/target/jperf.jar
[ -f "$JAR" ] || { echo "compare-perftest.sh: $JAR missing: build first (mvn -B -q -DskipTests package)"; exit 2; }
OUT=$LAB_RESULTS/compare; mkdir -p "$OUT"
# jperf's JVMs start here: their hs_err reports (the JVM's default place is its working directory) stay
# (--vms 2: the server's guest B has its own, jvm-cwd-B)
JVM_CWD=$LAB_RESULTS/jvm-cwd JVM_CWD_S=$LAB_RESULTS/jvm-cwd
unset JPERF_JAVA_OPTS JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS
if [ "$VMS" = 2 ]; then
  # B serves: every server of the comparison runs there as a job A queues
  [ "$LAB_HOST" = B ] && { lab_job_agent; exit 0; }
  JVM_CWD_S=$LAB_RESULTS/jvm-cwd-B
  SDEV=$LAB_PEER_DEV_RAIL0 SIP=$LAB_PEER_IP_RAIL0 CDEV=$LAB_DEV_RAIL0 CIP=$LAB_IP_RAIL0
  SX=$LAB_PEER_GID_INDEX_RAIL0 CX=$LAB_GID_INDEX_RAIL0
  trap 'lab_job_stop B' EXIT
  SPIN=() CPIN=() SCPU=0 CCPU=0 SETUP="2 guests (server on B, client on A), 1 vCPU each"
else
  SDEV=$LAB_DEV_RAIL0 SIP=$LAB_IP_RAIL0 CDEV=$LAB_PEER_DEV_RAIL0 CIP=$LAB_PEER_IP_RAIL0
  SX=${LAB_GID_INDEX_RAIL0:-$(lab_gid_index "$SDEV" "$SIP")} CX=${LAB_PEER_GID_INDEX_RAIL0:-$(lab_gid_index "$CDEV" "$CIP")}
  if [ "$(nproc)" -ge 2 ]; then SPIN=(taskset -c 0) CPIN=(taskset -c 1) SCPU=0 CCPU=1
  else echo "compare-perftest.sh: needs 2 vCPUs (server and client must not share one)"; exit 2; fi
  SETUP="1 guest, $(nproc) vCPUs (server on vCPU 0, client on vCPU 1)"
fi
mkdir -p "$JVM_CWD" "$JVM_CWD_S"
[ -n "$SX" ] && [ -n "$CX" ] || { echo "no RoCE v2 IPv4 GID for $SIP on $SDEV or $CIP on $CDEV"; lab_gids; exit 1; }

EMB_DIR=$OUT/embedded-classes
if [[ ,$WAYS, == *,embedded,* ]]; then
  mkdir -p "$EMB_DIR"
  "$JAVA_HOME/bin/javac" -cp "$JAR" -d "$EMB_DIR" "$LAB_REPO/lab/scripts/EmbeddedWrite.java" ||
    { echo "compare-perftest.sh: could not compile lab/scripts/EmbeddedWrite.java"; exit 1; }
fi
# jperf_cmd WAY TEST -> JCMD: how that way starts jperf (TEST e.g. write-bw; the test's arguments follow)
jperf_cmd() {
  case $1 in
    launcher) JCMD=("$LAB_REPO/jperf" "$2"); [ -z "$JAVA_OPTS" ] || JCMD=(env "JPERF_JAVA_OPTS=$JAVA_OPTS" "${JCMD[@]}") ;;
    jar) JCMD=("$JAVA_HOME/bin/java" "${XJVM[@]}" -jar "$JAR" "$2") ;;
    embedded) JCMD=("$JAVA_HOME/bin/java" "${XJVM[@]}" --enable-native-access=ALL-UNNAMED -cp "$JAR:$EMB_DIR" EmbeddedWrite "$2") ;;
    before) JCMD=("$JAVA_HOME/bin/java" "${XJVM[@]}" -jar "$JAR_BEFORE" "$2") ;;
  esac
}

has_cm() { local a; for a in "$@"; do case $a in -R|--rdma_cm) return 0 ;; esac; done; return 1; }
port_state() { lab_port_state "$PORT" "$1"; }
kill_tree() { lab_kill_tree "$@"; }
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
hs_err_count() { local f n=0; for f in "$LAB_RESULTS"/jvm-cwd*/hs_err_pid*.log; do [ -e "$f" ] && n=$((n + 1)); done; echo $n; }

# Results: V[metric,tool,i] value (or empty), S[metric,tool,i] "ok" or the failure reason; i=0..WARMUP-1 warm-up
declare -A V S
JVMS=0 CRASHES=() CRASHED_RUNS=()
# run_one MEASURE TOOL LABEL IDX; TOOL = perftest or jperf-WAY
run_one() {
  local m=$1 tool=$2 label=$3 i=$4 verb=write kind size iters flags=() sx=(-x "$SX") cx=(-x "$CX") extra scmd ccmd
  case $m in
    bw) kind=bw size=65536 iters=2000 flags=(-s 65536 -n 2000 --report_gbits) ;;
    mr) kind=bw size=2 iters=20000 flags=(-s 2 -n 20000) ;;
    lat) kind=lat size=2 iters=1000 flags=(-s 2 -n 1000) ;;
    rbw) verb=read kind=bw size=65536 iters=1000 flags=(-s 65536 -n 1000 --report_gbits) ;;
    sbw) verb=send kind=bw size=65536 iters=2000 flags=(-s 65536 -n 2000 --report_gbits) ;;
    slat) verb=send kind=lat size=2 iters=1000 flags=(-s 2 -n 1000) ;;
    rlat) verb=read kind=lat size=2 iters=1000 flags=(-s 2 -n 1000) ;;
    alat) verb=atomic kind=lat size=8 iters=1000 flags=(-n 1000) ;;
  esac
  if [ "$tool" = perftest ]; then extra=("${XP[@]}"); else extra=("${XJ[@]}"); fi
  has_cm "${extra[@]}" && sx=() cx=()
  local spin=("${SPIN[@]}") cpin=("${CPIN[@]}") errs_before
  if [ "$tool" = perftest ]; then
    scmd=("ib_${verb}_$kind" -d "$SDEV" "${sx[@]}" -p "$PORT" -F "${flags[@]}" "${extra[@]}")
    ccmd=("ib_${verb}_$kind" -d "$CDEV" "${cx[@]}" -p "$PORT" -F "${flags[@]}" "${extra[@]}" "$SIP")
  else
    jperf_cmd "${tool#jperf-}" "$verb-$kind"
    # --cpu pins jperf's test thread and lets jperf place its other threads; JPERF_PIN=process
    # confines the whole JVM with taskset as well, as perftest is confined
    scmd=("${JCMD[@]}" -d "$SDEV" "${sx[@]}" -p "$PORT" -F --cpu "$SCPU" "${flags[@]}" "${extra[@]}")
    ccmd=("${JCMD[@]}" -d "$CDEV" "${cx[@]}" -p "$PORT" -F --cpu "$CCPU" "${flags[@]}" "${extra[@]}" "$SIP")
    [ "$JPERF_PIN" = none ] && spin=() cpin=()
    errs_before=$(hs_err_count)
  fi
  local base=$OUT/$m.$tool.$label t0 t1 sp rc=0 rs=0 why= line n cm=0
  has_cm "${extra[@]}" && cm=1
  [ "$VMS" = 2 ] || port_free_wait
  t0=$(lab_uptime)
  { echo "# ${SETUP%%,*}: ${spin[*]} ${scmd[*]}"; } > "$base.server.txt"
  if [ "$VMS" = 2 ]; then
    lab_job_start B "$base.server.txt" "$JVM_CWD_S" "$RUN_TIMEOUT" "$( ((cm)) || echo "$PORT")" "${scmd[@]}"
  else
    (cd "$JVM_CWD_S" && exec timeout -k 5 "$RUN_TIMEOUT" "${spin[@]}" "${scmd[@]}") >> "$base.server.txt" 2>&1 & sp=$!
  fi
  # wait until the server is ready: TCP exchange -> its port listens; rdma_cm -> fixed wait
  if ((cm)); then
    if [ "$tool" = perftest ]; then sleep "$CM_WAIT_PERFTEST"; else sleep "$CM_WAIT_JPERF"; fi
  elif [ "$VMS" = 2 ]; then
    lab_job_wait_listen "$LISTEN_WAIT" || why="server not listening after ${LISTEN_WAIT}s (or it ended)"
  else
    n=$((LISTEN_WAIT * 10))
    while ! port_state LISTEN && kill -0 "$sp" 2> /dev/null && ((n-- > 0)); do sleep 0.1; done
    port_state LISTEN || why="server not listening after ${LISTEN_WAIT}s"
  fi
  if [ -z "$why" ]; then
    { echo "# ${cpin[*]} ${ccmd[*]}"; } > "$base.client.txt"
    (cd "$JVM_CWD" && exec timeout -k 5 "$RUN_TIMEOUT" "${cpin[@]}" "${ccmd[@]}") >> "$base.client.txt" 2>&1; rc=$?
  else
    echo "# client not started: $why" > "$base.client.txt"
  fi
  # the server should end on its own right after the client; otherwise it is a stray: kill it
  if [ "$VMS" = 2 ]; then
    rs=$(lab_job_end 20) || { echo "  server still running 20 s after the client ended: killed" >> "$base.server.txt"; [ -n "$why" ] || why="server did not end"; }
    [ -n "$rs" ] || { rs=255; [ -n "$why" ] || why="B's job agent did not answer"; }
  else
    if ! alive_wait "$sp" 20; then
      echo "  server still running 20 s after the client ended: killing it" >> "$base.server.txt"
      kill_tree "$sp" TERM; alive_wait "$sp" 5 || kill_tree "$sp" KILL
      [ -n "$why" ] || why="server did not end"
    fi
    wait "$sp"; rs=$?
  fi
  t1=$(lab_uptime)
  if [ "$tool" != perftest ]; then
    JVMS=$((JVMS + 1)); [ "$(head -c 9 "$base.client.txt")" = "# client " ] || JVMS=$((JVMS + 1))
    if [ "$(hs_err_count)" != "$errs_before" ]; then
      why="a JVM died from a signal (hs_err in $LAB_RESULTS/jvm-cwd*)"
      CRASHED_RUNS+=("$m $tool $label")
    fi
  fi
  line=$(grep -E "^ *$size +$iters +" "$base.client.txt" | tail -1)
  local a b c d e f g h k
  read -r a b c d e f g h k <<< "$line"
  local v1= v2= m1 m2
  if [ "$kind" = bw ]; then m1=$m; if [ "$m" = mr ]; then v1=$e; else v1=$d; fi # bytes iters BW_peak BW_avg MsgRate
  else m1=${m}_typ m2=${m}_p99 v1=$e v2=$h; fi # bytes iters t_min t_max t_typical t_avg t_stdev 99% 99.9%
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
  printf '  %-4s %-15s %-7s %s  (%.1f s)\n' "$m" "$tool" "$label" "$msg" "$(echo "$t1 - $t0" | bc)"
  [ "$st1" = ok ] && [ "$st2" = ok ] || { echo "    --- client output tail ($base.client.txt):"; tail -4 "$base.client.txt" | sed 's/^/    | /'; }
}

T_START=$(lab_uptime)
PT_VER=$(ib_write_bw --version 2>&1 | sed -n 's/^Version: *//p' | head -1)
ver_errs=$(hs_err_count)
J_VER=$(cd "$JVM_CWD" && "$JAVA_HOME/bin/java" -jar "$JAR" --version 2>&1 | head -1)
# the banner's JVM counts like the measured ones: a fault there is a fault of this run too
JVMS=$((JVMS + 1)); [ "$(hs_err_count)" = "$ver_errs" ] || { CRASHED_RUNS+=("jperf --version (banner)"); J_VER="(jperf --version died from a signal)"; }
[ -z "$JAR_BEFORE" ] || J_VER="$J_VER; before: $JAR_BEFORE, $(cd "$JVM_CWD" && "$JAVA_HOME/bin/java" -jar "$JAR_BEFORE" --version 2>&1 | head -1)"
MTU=$(ibv_devinfo -d "$SDEV" 2> /dev/null | awk '/active_mtu/{print $2; exit}')
rdma statistic show link "$SDEV/1" > "$OUT/rxe-counters.before.txt" 2>&1; rdma statistic show link "$CDEV/1" >> "$OUT/rxe-counters.before.txt" 2>&1
TOOLS=()
for w in "${WAY_LIST[@]}"; do TOOLS+=("jperf-$w"); done
TOOLS+=(perftest)
STARTED=""
for w in "${WAY_LIST[@]}"; do
  jperf_cmd "$w" VERB-KIND
  STARTED+="
    jperf-$(printf '%-9s' "$w") $(echo "${JCMD[*]}" | sed "s|$OUT/|\$LAB_RESULTS/compare/|g; s|$LAB_REPO/||g; s|$JAVA_HOME/bin/||g; s|VERB-KIND|write-bw/lat (read-bw, send-bw/lat)|") -d DEV -x GID -p $PORT -F --cpu $SCPU|$CCPU ...$( [ "$JPERF_PIN" = process ] && [ "$VMS" = 1 ] && echo "  (under taskset -c 0|1)")"
done
HDR="compare-perftest: jperf ($J_VER) vs perftest $PT_VER; kernel $(uname -r), $SETUP (qemu ${LAB_QEMU:-?}), scenario ${LAB_SCENARIO:-?}, active_mtu $MTU
  server $SDEV $SIP gid $SX, client $CDEV $CIP gid $CX, port $PORT; RUNS=$RUNS rounds (+$WARMUP warm-up, discarded), order $ORDER
  how jperf was started (JVM flags: ${JAVA_OPTS:-none}; JPERF_JAVA_OPTS, JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS unset):$STARTED
    perftest        ${SPIN:+taskset -c 0|1 }ib_write_bw/lat (ib_read_bw, ib_send_bw/lat) -d DEV -x GID -p $PORT -F ...
  RDMA CM: $RDMA_CM; extra jperf: '${EXTRA_JPERF}'  extra perftest: '${EXTRA_PERFTEST}'"
echo "$HDR"

for m in "${SEL[@]}"; do
  echo "=== $m"
  for ((i = 0; i < WARMUP + RUNS; i++)); do
    if ((i < WARMUP)); then label=warmup$((i + 1)); else label=run$((i - WARMUP + 1)); fi
    order=("${TOOLS[@]}")
    # abba: measured round k (1-based) runs the tools forward when k is odd, backward when even
    if [ "$ORDER" = abba ] && ((i >= WARMUP && (i - WARMUP) % 2 == 1)); then
      order=(); for ((t = ${#TOOLS[@]} - 1; t >= 0; t--)); do order+=("${TOOLS[$t]}"); done
    fi
    for t in "${order[@]}"; do run_one "$m" "$t" "$label" "$i"; done
  done
done
port_free_wait
rdma statistic show link "$SDEV/1" > "$OUT/rxe-counters.after.txt" 2>&1; rdma statistic show link "$CDEV/1" >> "$OUT/rxe-counters.after.txt" 2>&1

# ---- report ----
declare -A NAME UNIT BETTER SHORT
NAME[bw]="write_bw 64KiB BW avg" UNIT[bw]=Gb/s BETTER[bw]=higher SHORT[bw]="P1 64 KiB bw"
NAME[mr]="write_bw 2B MsgRate" UNIT[mr]=Mpps BETTER[mr]=higher SHORT[mr]="P2 2 B msg rate"
NAME[lat_typ]="write_lat 2B t_typical" UNIT[lat_typ]=us BETTER[lat_typ]=lower SHORT[lat_typ]="P3 2 B t_typical"
NAME[lat_p99]="write_lat 2B 99%" UNIT[lat_p99]=us BETTER[lat_p99]=lower SHORT[lat_p99]="P3 2 B 99%"
NAME[rbw]="read_bw 64KiB BW avg" UNIT[rbw]=Gb/s BETTER[rbw]=higher SHORT[rbw]="read 64 KiB bw"
NAME[sbw]="send_bw 64KiB BW avg" UNIT[sbw]=Gb/s BETTER[sbw]=higher SHORT[sbw]="send 64 KiB bw"
NAME[slat_typ]="send_lat 2B t_typical" UNIT[slat_typ]=us BETTER[slat_typ]=lower SHORT[slat_typ]="send 2 B t_typical"
NAME[slat_p99]="send_lat 2B 99%" UNIT[slat_p99]=us BETTER[slat_p99]=lower SHORT[slat_p99]="send 2 B 99%"
NAME[rlat_typ]="read_lat 2B t_typical" UNIT[rlat_typ]=us BETTER[rlat_typ]=lower SHORT[rlat_typ]="read 2 B t_typical"
NAME[rlat_p99]="read_lat 2B 99%" UNIT[rlat_p99]=us BETTER[rlat_p99]=lower SHORT[rlat_p99]="read 2 B 99%"
NAME[alat_typ]="atomic_lat 8B t_typical" UNIT[alat_typ]=us BETTER[alat_typ]=lower SHORT[alat_typ]="atomic 8 B t_typical"
NAME[alat_p99]="atomic_lat 8B 99%" UNIT[alat_p99]=us BETTER[alat_p99]=lower SHORT[alat_p99]="atomic 8 B 99%"
METRICS=()
for m in "${SEL[@]}"; do case $m in lat|slat|rlat|alat) METRICS+=("${m}_typ" "${m}_p99") ;; *) METRICS+=("$m") ;; esac; done
# stats VALUES... -> "n median min max" (n=0 -> "0 - - -")
stats() { printf '%s\n' "$@" | awk 'NF{v[++n]=$1} END{if(!n){print "0 - - -";exit} for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(v[j]<v[i]){t=v[i];v[i]=v[j];v[j]=t}
  med=(n%2)?v[(n+1)/2]:(v[n/2]+v[n/2+1])/2; printf "%d %.6g %.6g %.6g\n", n, med, v[1], v[n]}'; }
jstr() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
jnum() { if [ "$1" = - ]; then echo null; else echo "$1"; fi; }
fail=0
TABLE=$(printf '%-24s %-5s %-15s %-5s %-10s %-s\n' measure unit tool n median "spread  runs in order (x = failed, excluded)  [warm-up, discarded]")
SUMMARY=$(printf '%-18s %-10s' "" "perftest"; for w in "${WAY_LIST[@]}"; do printf ' | %-27s' "jperf $w"; done)
SUMMARY+=$'\n'$(printf '%-18s %-10s' "" "median"; for w in "${WAY_LIST[@]}"; do printf ' | %-27s' "median  ratio  paired [CI]"; done)
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
    TABLE+=$'\n'$(printf '%-24s %-5s %-15s %-5s %-10s %-7s %s  [%s]' "${NAME[$mt]}" "${UNIT[$mt]}" "$t" "$n/$RUNS" "$med" "$spread" "${shown[*]}" "${warm[*]}")
    jt+=("$(jstr "$t"):{\"median\":$(jnum "$med"),\"valid\":$n,\"min\":$(jnum "$mn"),\"max\":$(jnum "$mx"),\"runs\":[$(IFS=,; echo "${jr[*]}")],\"warmup\":[$(IFS=,; echo "${jw[*]}")]}")
  done
  line=$(printf '%-18s %-10s' "${SHORT[$mt]}" "${MED[perftest]}")
  jways=()
  for w in "${WAY_LIST[@]}"; do
    t=jperf-$w
    ratio=- verdict="n/a (no valid runs for a tool)"
    if [ "${MED[$t]}" != - ] && [ "${MED[perftest]}" != - ]; then
      read -r ratio verdict < <(awk -v j="${MED[$t]}" -v p="${MED[perftest]}" -v better="${BETTER[$mt]}" -v noise="$NOISE_PCT" 'BEGIN{
        r=j/p; d=(r-1)*100; good=(better=="higher")?(d>0):(d<0);
        if (d<noise && d>-noise) v="~ same (within " noise "%)"; else v=(good?"jperf better":"jperf worse");
        printf "%.3f %s\n", r, v}')
    fi
    TABLE+=$'\n'$(printf '%-24s %-5s %-15s %s' "" "" "ratio $w" "jperf $w/perftest = $ratio  (${BETTER[$mt]} is better: $verdict)")
    # paired: round k = the k-th measured run of each tool (seconds apart), both valid
    pairs=()
    for ((i = WARMUP; i < WARMUP + RUNS; i++)); do
      [ "${S[$mt,$t,$i]-}" = ok ] && [ "${S[$mt,perftest,$i]-}" = ok ] && pairs+=("${V[$mt,$t,$i]} ${V[$mt,perftest,$i]}")
    done
    read -r pn pmed plo phi pcov pwins < <(printf '%s\n' "${pairs[@]}" | awk -v BETTER="${BETTER[$mt]}" -f "$LAB_REPO/lab/scripts/paired-ratio.awk")
    if [ "$plo" = - ]; then pci="no 95% interval with $pn rounds (needs >= 6)"; else pci="${pcov}% CI [$plo, $phi]"; fi
    TABLE+=$'\n'$(printf '%-24s %-5s %-15s %s' "" "" "paired $w" "median of $pn round ratios = $pmed, $pci; jperf better in $pwins/$pn rounds")
    line+=$(printf ' | %-27s' "${MED[$t]} $ratio $pmed$( [ "$plo" = - ] || echo " [$plo,$phi]")")
    jways+=("$(jstr "$w"):{\"ratio_jperf_over_perftest\":$(jnum "$ratio"),\"verdict\":$(jstr "$verdict"),\"paired\":{\"rounds\":$pn,\"median_ratio\":$(jnum "$pmed"),\"ci_low\":$(jnum "$plo"),\"ci_high\":$(jnum "$phi"),\"ci_coverage_pct\":$(jnum "$pcov"),\"jperf_better_rounds\":$pwins}}")
  done
  SUMMARY+=$'\n'"$line"
  jlev=
  if [[ $mt == *_typ ]]; then
    # every valid measured run of every tool, split into the lab's two levels; tools compared at the fast one
    runs=()
    for t in "${TOOLS[@]}"; do for ((i = WARMUP; i < WARMUP + RUNS; i++)); do
      [ "${S[$mt,$t,$i]-}" = ok ] && runs+=("$t ${V[$mt,$t,$i]}")
    done; done
    declare -A LF=() LFN=()
    levels=() jl=()
    while read -r t nf fmed ns smed; do
      if [ "$t" = split ]; then split=$nf; continue; fi
      LF[$t]=$fmed LFN[$t]=$nf
      levels+=("$t $nf fast${fmed:+ ($fmed)}, $ns slow${smed:+ ($smed)}")
      jl+=("$(jstr "$t"):{\"fast\":$nf,\"fast_median\":$(jnum "$fmed"),\"slow\":$ns,\"slow_median\":$(jnum "$smed")}")
    done < <(printf '%s\n' "${runs[@]}" | awk -f "$LAB_REPO/lab/scripts/levels.awk")
    if [ "$split" = - ]; then lev="one level (no two groups 1.3x apart)"; else lev="fast <= $split ${UNIT[$mt]}"; fi
    TABLE+=$'\n'$(printf '%-24s %-5s %-15s %s' "" "" "levels" "$lev: $(IFS=';'; echo "${levels[*]}" | sed 's/;/; /g')")
    for w in "${WAY_LIST[@]}"; do
      t=jperf-$w
      [ "${LF[$t]:--}" != - ] && [ "${LF[perftest]:--}" != - ] || continue
      TABLE+=$'\n'$(printf '%-24s %-5s %-15s %s' "" "" "fast $w" "fast-level medians jperf $w/perftest = $(awk -v j="${LF[$t]}" -v p="${LF[perftest]}" 'BEGIN{printf "%.3f", j/p}') (${LFN[$t]} and ${LFN[perftest]} runs)")
    done
    jlev=",\"levels\":{\"split\":$(jnum "$split"),\"tools\":{$(IFS=,; echo "${jl[*]}")}}"
    unset LF LFN
  fi
  JM+=("{\"id\":$(jstr "$mt"),\"name\":$(jstr "${NAME[$mt]}"),\"unit\":$(jstr "${UNIT[$mt]}"),\"better\":$(jstr "${BETTER[$mt]}"),\"ways\":{$(IFS=,; echo "${jways[*]}")},\"tools\":{$(IFS=,; echo "${jt[*]}")}$jlev}")
  unset MED
done
T_END=$(lab_uptime)
CRASH_LINE="jperf JVMs started: $JVMS; died from a signal: ${#CRASHED_RUNS[@]}$( ((${#CRASHED_RUNS[@]} > 0)) && printf ' (%s)' "$(IFS=';'; echo "${CRASHED_RUNS[*]}")"; compgen -G "$LAB_RESULTS/jvm-cwd*/hs_err_pid*.log" > /dev/null && echo "; reports: $(ls "$LAB_RESULTS"/jvm-cwd*/hs_err_pid*.log | paste -sd' ')")"
FOOT="ratio = median(jperf way)/median(perftest); paired = median of jperf_k/perftest_k over the rounds, with a sign-test
confidence interval (order statistics). Bandwidth/message rate: >1 = jperf better; latency: <1 = jperf better.
Under TCG message rate and latency are bimodal, the level drawn per run; 'spread' = (max-min)/median of the valid runs.
$CRASH_LINE
Raw outputs: $OUT   guest time for all runs: $(echo "$T_END - $T_START" | bc) s"
REPORT="$HDR

$TABLE

Summary (medians; ratio = jperf/perftest; paired [CI]):
$SUMMARY

$FOOT"
echo; echo "$REPORT"
echo "$REPORT" > "$LAB_RESULTS/compare.txt"
{
  printf '{"tool":"compare-perftest","date":%s,"kernel":%s,"qemu":%s,"jperf_version":%s,"perftest_version":%s,' \
    "$(jstr "$(date -u +%FT%TZ)")" "$(jstr "$(uname -r)")" "$(jstr "${LAB_QEMU:-}")" "$(jstr "$J_VER")" "$(jstr "$PT_VER")"
  printf '"runs":%d,"warmup":%d,"measures_selected":%s,"ways":%s,"rdma_cm":%s,"extra_jperf":%s,"extra_perftest":%s,"noise_pct":%d,' \
    "$RUNS" "$WARMUP" "$(jstr "$MEASURES")" "$(jstr "$WAYS")" "$(jstr "$RDMA_CM")" "$(jstr "$EXTRA_JPERF")" "$(jstr "$EXTRA_PERFTEST")" "$NOISE_PCT"
  printf '"jperf_pin":%s,"jperf_java_opts":%s,"jperf_jvms":%d,"jperf_jvm_crashes":%d,' \
    "$(jstr "$JPERF_PIN")" "$(jstr "$JAVA_OPTS")" "$JVMS" "${#CRASHED_RUNS[@]}"
  printf '"setup":{"server":{"dev":%s,"ip":%s,"gid_index":%s,"cpu":%d},"client":{"dev":%s,"ip":%s,"gid_index":%s,"cpu":%d},"port":%d,"active_mtu":%s,"scenario":%s,"guests":%d},' \
    "$(jstr "$SDEV")" "$(jstr "$SIP")" "$SX" "$SCPU" "$(jstr "$CDEV")" "$(jstr "$CIP")" "$CX" "$CCPU" "$PORT" "${MTU:-null}" "$(jstr "${LAB_SCENARIO:-}")" "$VMS"
  printf '"order":"per measure: %d warm-up round(s), then %d measured rounds (%s)",' "$WARMUP" "$RUNS" "$ORDER"
  printf '"measures":[%s]}\n' "$(IFS=,; echo "${JM[*]}")"
} > "$LAB_RESULTS/compare.json"
echo "written: $LAB_RESULTS/compare.txt, $LAB_RESULTS/compare.json"
((${#CRASHED_RUNS[@]} == 0)) || fail=1
exit $fail
