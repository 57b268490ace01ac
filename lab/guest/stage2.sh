#!/bin/bash
# jperf RDMA lab: PID 1 inside a guest after switch_root (started by lab/guest/init).
# Root = overlay(host "/" read-only over 9p + tmpfs), so this runs the host's own bash, iproute2,
# rdma-core, perftest and JDK. Steps: mounts -> network + rxe (net-setup.sh) -> barrier with the
# other guests (--vms 2, 3) -> with --vms 3: munge + Slurm (slurm.sh) -> run the user's script (output to the results share) -> status file -> poweroff.
# Console (ttyS0) output of this script lands in <results>/console-<host>.log on the host.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb LANG=C.UTF-8
SHARE=/run/jperf-lab-share
LABDIR=$SHARE/.lab
LAB_HOST=A
up() { local u; read -r u _ < /proc/uptime; echo "$u"; }
log() { echo "[lab-stage2 $LAB_HOST $(up)s] $*"; }

# The JVM census (issue #23): every exec of a `java` binary in this guest, counted by the kernel
# (sched_process_exec, filtered on the file name; one per pid, so a launcher that re-execs itself
# counts once), and every hs_err report a JVM left, in the results share or in the guest's RAM
# (its working directory, /tmp). A JVM that dies from a signal writes one. The host sums the guests'
# census-<host> files and the reports into the run's summary (lab/rdma-lab, "JVMs started").
TRACE=/sys/kernel/tracing
CENSUS=0
census_start() {
  [ -d "$TRACE/events" ] || mount -t tracefs nodev "$TRACE" 2> /dev/null
  local ev=$TRACE/events/sched/sched_process_exec
  [ -w "$ev/enable" ] || { log "census: no tracefs sched_process_exec here, JVM starts not counted"; return 0; }
  echo 'filename ~ "*/bin/java"' > "$ev/filter" || { log "census: the exec filter was refused"; return 0; }
  : > "$TRACE/trace"
  echo 1 > "$ev/enable" && CENSUS=1
}
census_finish() {
  [ "$CENSUS" = 1 ] || return 0
  CENSUS=0
  echo 0 > "$TRACE/events/sched/sched_process_exec/enable"
  local starts f n=0 dir=$LAB_RESULTS/hs_err-guest-$LAB_HOST
  starts=$(grep -o ' pid=[0-9]*' "$TRACE/trace" | sort -u | wc -l)
  while IFS= read -r -d '' f; do
    mkdir -p "$dir" && cp "$f" "$dir/$(echo "${f#/run/jperf-lab-upper/}" | tr / _)" && n=$((n + 1))
  done < <(find /run/jperf-lab-upper -xdev -name 'hs_err_pid*.log' -print0 2> /dev/null)
  printf 'jvm_starts=%s\nhs_err_in_guest=%s\n' "$starts" "$n" > "$LABDIR/census-$LAB_HOST"
  log "census: $starts JVMs started, $n hs_err reports left in the guest's RAM (copied to hs_err-guest-$LAB_HOST/)"
}

finish() { # finish RC [MESSAGE]: record the status for the host, then power off (never returns)
  census_finish
  [ -n "${2:-}" ] && { log "$2"; echo "$2" > "$LABDIR/error-$LAB_HOST"; }
  echo "$1" > "$LABDIR/status-$LAB_HOST.tmp" && mv -f "$LABDIR/status-$LAB_HOST.tmp" "$LABDIR/status-$LAB_HOST"
  echo "up=$(up)" >> "$LABDIR/timing-$LAB_HOST"
  log "script status $1, powering off"
  echo "@@JPERF-LAB-STATUS $LAB_HOST $1@@"
  sync
  /bin/busybox poweroff -f
  sleep 30
}

# watchdog_wait PID SECONDS: true once PID ended, false if it still runs after SECONDS (guest clock).
# Forks nothing while it waits: with a `cut` and a `sleep` once a second, bash, cut and sleep took
# ~7 % of the guest's CPU samples (lab/scripts/profile-write.sh), beside the measured tools.
watchdog_wait() {
  local now end nap
  read -r now _ < /proc/uptime; end=$((${now%.*} + $2))
  exec {nap}<> <(:) # read -t on a pipe nobody writes to: a sleep without a fork
  while kill -0 "$1" 2> /dev/null; do
    read -r now _ < /proc/uptime
    [ "${now%.*}" -ge "$end" ] && { exec {nap}>&-; return 1; }
    read -r -t 1 -u "$nap" _
  done
  exec {nap}>&-
}

# watchdog_report FILE SECONDS: what every process was doing when the watchdog fired: state, CPU ticks
# and kernel stack of each thread, and a SIGQUIT to each JVM, whose thread dump goes to its stdout
watchdog_report() {
  local pid t line comm f java_pids=()
  {
    echo "watchdog after $2 s (uptime $(up) s): processes, then each thread: tid comm state utime stime [kernel stack]"
    ps -eo pid,ppid,stat,etimes,time,args 2> /dev/null
    for pid in /proc/[0-9]*; do
      pid=${pid#/proc/}
      [ "$pid" = 1 ] || [ "$pid" = $$ ] || [ -z "$(tr -d '\0' < "/proc/$pid/cmdline" 2> /dev/null)" ] && continue
      echo "--- pid $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null | cut -c1-300)"
      grep -q java "/proc/$pid/comm" 2> /dev/null && java_pids+=("$pid")
      for t in /proc/"$pid"/task/*; do
        read -r line 2> /dev/null < "$t/stat" || continue
        f=(${line##*) }) # after "pid (comm) ": state is field 0, utime 11, stime 12
        comm=${line#*(}; comm=${comm%) *}
        printf '  %s %s %s utime=%s stime=%s' "${t##*/}" "$comm" "${f[0]}" "${f[11]}" "${f[12]}"
        echo " [$(head -3 "$t/stack" 2> /dev/null | awk '{ print $2 }' | paste -sd' ')]"
      done
    done
  } > "$1" 2>&1
  for pid in "${java_pids[@]}"; do kill -QUIT "$pid" 2> /dev/null; done
  [ ${#java_pids[@]} -gt 0 ] && sleep 8
}

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
[ -e /dev/fd ] || ln -sf /proc/self/fd /dev/fd
ln -sf fd/0 /dev/stdin; ln -sf fd/1 /dev/stdout; ln -sf fd/2 /dev/stderr
echo 0 > /proc/sys/kernel/printk_ratelimit 2>/dev/null
read -r cmdline < /proc/cmdline
for w in $cmdline; do case $w in lab.host=*) LAB_HOST=${w#lab.host=} ;; esac; done

# shellcheck disable=SC1091
. "$LABDIR/lab.env" || finish 125 "cannot read $LABDIR/lab.env"
log "userland up, kernel $(uname -r), scenario $LAB_SCENARIO, vms $LAB_VMS"
echo "userland=$(up)" > "$LABDIR/timing-$LAB_HOST"
# the results folder at the same path as on the host
mkdir -p "$LAB_RESULTS" && mount --bind "$SHARE" "$LAB_RESULTS" || finish 125 "cannot bind results share to $LAB_RESULTS"
# modprobe / request_module (e.g. crc32 for rdma link add): the guest kernel's own module tree
[ -d "$LAB_MODULES" ] && mkdir -p /lib/modules && mount --bind "$LAB_MODULES" /lib/modules || log "WARNING: guest module tree $LAB_MODULES not bound"
hostname "lab-${LAB_HOST,,}"
ip link set lo up

. "$LAB_REPO/lab/guest/lib.sh" || finish 125 "cannot source lib.sh"
. "$LAB_REPO/lab/guest/net-setup.sh" || finish 125 "cannot source net-setup.sh"
LAB_PEER_HOST=A; [ "$LAB_VMS" = 2 ] && { [ "$LAB_HOST" = A ] && LAB_PEER_HOST=B || LAB_PEER_HOST=A; }
LAB_HOSTS=A; [ "$LAB_VMS" = 2 ] && LAB_HOSTS="A B"
if [ "$LAB_VMS" = 3 ]; then # the peer of a two-host script is the next host: A -> B -> C -> A
  LAB_HOSTS="A B C"; case $LAB_HOST in A) LAB_PEER_HOST=B ;; B) LAB_PEER_HOST=C ;; *) LAB_PEER_HOST=A ;; esac
fi
LAB_SYNC=$LAB_RESULTS/.lab/sync
mkdir -p "$LAB_SYNC"
lab_scenario_check "$LAB_VMS" "$LAB_SCENARIO" || finish 125 "scenario $LAB_SCENARIO not supported with --vms $LAB_VMS"
if [ "$LAB_VMS" -ge 2 ]; then lab_net_setup_2vm; else lab_net_setup_1vm; fi || {
  lab_net_snapshot "$LAB_RESULTS/net-$LAB_HOST.txt"; finish 125 "network/rxe setup failed (see net-$LAB_HOST.txt)"; }
lab_net_snapshot "$LAB_RESULTS/net-$LAB_HOST.txt"
echo "netready=$(up)" >> "$LABDIR/timing-$LAB_HOST"
log "network + rxe ready"

VARS=(LAB_HOST LAB_PEER_HOST LAB_HOSTS LAB_VMS LAB_SCENARIO LAB_RESULTS LAB_REPO LAB_SYNC LAB_RAILS LAB_PERFTEST LAB_QEMU)
for r in 0 1; do
  for v in DEV NETDEV IP GID_INDEX; do VARS+=("LAB_${v}_RAIL$r"); done
  for v in PEER_DEV PEER_NETDEV PEER_IP; do VARS+=("LAB_${v}_RAIL$r"); done
done
[ "$LAB_VMS" = 1 ] && VARS+=(LAB_PEER_GID_INDEX_RAIL0)
write_env() { local v; for v in "$@"; do [ -n "${!v+x}" ] && printf '%s=%q\n' "$v" "${!v}"; done; }
write_env "${VARS[@]}" > "$LABDIR/local-$LAB_HOST.env"
if [ "$LAB_VMS" -ge 2 ]; then
  lab_barrier netready 900 || finish 126 "peer $LAB_PEER_HOST never finished its setup"
  for r in 0 1; do # the peer's GID indexes, from its own env file
    printf -v "LAB_PEER_GID_INDEX_RAIL$r" '%s' "$(. "$LABDIR/local-$LAB_PEER_HOST.env"; v=LAB_GID_INDEX_RAIL$r; echo "${!v:-}")"
    VARS+=("LAB_PEER_GID_INDEX_RAIL$r")
  done
fi
if [ "$LAB_VMS" = 3 ]; then # munge + Slurm on every guest, slurmctld on A; the script starts once srun works
  . "$LAB_REPO/lab/guest/slurm.sh" || finish 125 "cannot source slurm.sh"
  lab_slurm_start || finish 125 "Slurm setup failed (slurm*-$LAB_HOST.log, munged-$LAB_HOST.log)"
  echo "slurmready=$(up)" >> "$LABDIR/timing-$LAB_HOST"
  VARS+=(LAB_SLURM_NODES)
fi
JAVA_HOME=${LAB_JAVA_HOME:-}
[ -x "$JAVA_HOME/bin/java" ] && PATH=$JAVA_HOME/bin:$PATH || unset JAVA_HOME
# A jperf JVM that crashes in the guest leaves its hs_err report where the host can read it. Nothing
# else: jperf runs in the lab as a user starts it (the C1-only flag the lab used to add is gone; the
# engine's warm-up waits for the JIT and its --cpu placement keeps the JVM's threads in check).
JPERF_JAVA_OPTS="-XX:ErrorFile=$LAB_RESULTS/hs_err_pid%p.log${JPERF_JAVA_OPTS:+ $JPERF_JAVA_OPTS}"
VARS+=(JAVA_HOME PATH JPERF_JAVA_OPTS)
write_env "${VARS[@]}" > "$LABDIR/env-$LAB_HOST"
for v in "${VARS[@]}"; do [ -n "${!v+x}" ] && export "${v?}"; done
cd "$LAB_CWD" 2>/dev/null || cd "$LAB_REPO" || cd /

if [ "$LAB_MODE" = shell ]; then
  if [ "$LAB_HOST" = A ]; then
    echo "jperf lab guest $LAB_HOST ready: env in $LAB_RESULTS/.lab/env-$LAB_HOST (already exported); 'exit' powers off."
    setsid -c /bin/bash -i < /dev/ttyS0 > /dev/ttyS0 2>&1
    rc=$?; : > "$LAB_SYNC/A.shell-done"
  else
    while [ ! -e "$LAB_SYNC/A.shell-done" ]; do sleep 1; done; rc=0
  fi
  finish "$rc"
fi

census_start
mapfile -d '' -t ARGS < "$LABDIR/args" 2>/dev/null || ARGS=()
OUT=$LABDIR/out-$LAB_HOST.log
log "running $LAB_SCRIPT ${ARGS[*]}"
: > "$LABDIR/started-$LAB_HOST"
echo "script=$(up)" >> "$LABDIR/timing-$LAB_HOST"
if [ -x "$LAB_SCRIPT" ]; then "$LAB_SCRIPT" "${ARGS[@]}"; else bash "$LAB_SCRIPT" "${ARGS[@]}"; fi >> "$OUT" 2>&1 < /dev/null &
script_pid=$!
if [ "${LAB_WATCHDOG_S:-0}" -gt 0 ]; then
  watchdog_wait "$script_pid" "$LAB_WATCHDOG_S" || {
    watchdog_report "$LAB_RESULTS/hang-$LAB_HOST.txt" "$LAB_WATCHDOG_S"
    kill -KILL -1 2> /dev/null # PID 1 (this script) is spared: every process of the run goes
    echo "scriptend=$(up)" >> "$LABDIR/timing-$LAB_HOST"
    finish 124 "watchdog: the script still ran after ${LAB_WATCHDOG_S}s; its processes' threads are in hang-$LAB_HOST.txt (Java thread dumps in the script's output)"
  }
fi
wait "$script_pid"
rc=$?
echo "scriptend=$(up)" >> "$LABDIR/timing-$LAB_HOST"
finish "$rc"
