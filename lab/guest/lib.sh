# jperf RDMA lab: helpers for scripts running inside a lab guest.  Usage:  . "$LAB_REPO/lab/guest/lib.sh"
# Everything here avoids forks where it can: under QEMU TCG every fork costs ~50 ms.

# lab_gid_index DEV IPV4 -> prints the GID index of the RoCE v2 GID ::ffff:IPV4 on DEV port 1 (empty + rc 1 if none).
# Never use a fixed GID index: 0 is the link-local fe80 GID, each IPv4 address adds one entry.
lab_gid_index() {
  local dev=$1 ip=$2 hex i v ty d=/sys/class/infiniband/$1/ports/1
  [ -n "$ip" ] && [ -d "$d/gids" ] || return 1
  local IFS=.; set -- $ip; IFS=' '
  printf -v hex '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
  for ((i = 0; i < 1024; i++)); do
    [ -r "$d/gids/$i" ] || break
    read -r v < "$d/gids/$i" || continue
    if [ "$v" = "$hex" ]; then
      ty=; read -r ty < "$d/gid_attrs/types/$i" 2>/dev/null
      [ "$ty" = "RoCE v2" ] || continue
      echo "$i"; return 0
    fi
  done
  return 1
}

# lab_gids [DEV...] -> "dev idx gid type ndev" for every non-empty GID (default: all rdma devices)
lab_gids() {
  local d g i v ty nd devs=("$@")
  [ ${#devs[@]} -gt 0 ] || { for d in /sys/class/infiniband/*; do [ -e "$d" ] && devs+=("${d##*/}"); done; }
  for d in "${devs[@]}"; do
    for ((i = 0; i < 1024; i++)); do
      g=/sys/class/infiniband/$d/ports/1/gids/$i
      [ -r "$g" ] || break
      read -r v < "$g" 2>/dev/null || continue
      [ "$v" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
      ty=; nd=
      read -r ty < "/sys/class/infiniband/$d/ports/1/gid_attrs/types/$i" 2>/dev/null
      read -r nd < "/sys/class/infiniband/$d/ports/1/gid_attrs/ndevs/$i" 2>/dev/null
      echo "$d idx=$i gid=$v type=$ty ndev=$nd"
    done
  done
}

# lab_barrier NAME [TIMEOUT_S=600] -> with --vms 2 or 3: waits until every other guest ($LAB_HOSTS, else
# $LAB_PEER_HOST) reached the same barrier. Marker files in $LAB_SYNC (the shared results folder). No-op with --vms 1.
lab_barrier() {
  local name=$1 to=${2:-600} start now h
  [ "${LAB_VMS:-1}" -ge 2 ] || return 0
  : > "$LAB_SYNC/$LAB_HOST.$name"
  read -r start _ < /proc/uptime; start=${start%.*}
  for h in ${LAB_HOSTS:-$LAB_PEER_HOST}; do
    [ "$h" = "$LAB_HOST" ] && continue
    while [ ! -e "$LAB_SYNC/$h.$name" ]; do
      read -r now _ < /proc/uptime; now=${now%.*}
      if ((now - start > to)); then echo "lab_barrier $name: host $h did not arrive within ${to}s" >&2; return 1; fi
      sleep 0.3
    done
  done
}

# lab_uptime -> guest uptime in seconds (no fork)
lab_uptime() { local u; read -r u _ < /proc/uptime; echo "$u"; }

# lab_port_state PORT LISTEN|BUSY -> LISTEN: a socket listens on local PORT; BUSY: any socket on local
# PORT but TIME_WAIT. Reads /proc/net/tcp{,6} (no fork).
lab_port_state() {
  local f sl la ra st rest hex
  printf -v hex '%04X' "$1"
  for f in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$f" ] || continue
    while read -r sl la ra st rest; do
      [ "${la##*:}" = "$hex" ] || continue
      if [ "$2" = LISTEN ]; then [ "$st" = 0A ] && return 0; else [ "$st" != 06 ] && return 0; fi
    done < "$f"
  done
  return 1
}

# lab_kill_tree PID SIGNAL: the process and all its descendants (found via /proc, children first stopped)
lab_kill_tree() {
  local p=$1 sig=$2 f k kids
  kill -STOP "$p" 2> /dev/null
  for f in /proc/"$p"/task/*/children; do
    kids=(); [ -r "$f" ] && read -ra kids < "$f"
    for k in "${kids[@]}"; do lab_kill_tree "$k" "$sig"; done
  done
  kill -"$sig" "$p" 2> /dev/null; kill -CONT "$p" 2> /dev/null
}

# Jobs run on another guest (--vms 2, 3): one guest runs `lab_job_agent`, another queues commands with
# `lab_job_start HOST ...` and follows them. Files in $LAB_SYNC/jobs-HOST/ (the shared results folder):
# N.job (the command, written by the client), N.listening (its TCP port listens), N.rc (it ended:
# its exit status), N.kill (the client asks for its end), stop (the agent exits). Polls only with
# builtins (a fork costs ~50 ms under TCG; the guests have one vCPU each), 5 times a second while
# waiting for a job and twice a second while one runs.
_lab_nap() { [ -n "${_LAB_NAP:-}" ] || exec {_LAB_NAP}<> <(:); read -t "$1" -u "$_LAB_NAP" _; }
_lab_put() { printf '%s\n' "$2" > "$1.tmp" && mv -f "$1.tmp" "$1"; } # FILE TEXT, atomically

# lab_job_agent: runs the jobs queued for this guest, one at a time, in order, until `stop`.
# A job: JOB_CMD (array), JOB_OUT (its stdout+stderr), JOB_CWD, JOB_TIMEOUT (s; timeout -k 5), JOB_PORT
# (optional: wait until nothing but TIME_WAIT uses it before the start, announce when it listens).
lab_job_agent() {
  local q=$LAB_SYNC/jobs-$LAB_HOST n=1 pid rc up JOB_CMD JOB_OUT JOB_CWD JOB_TIMEOUT JOB_PORT i
  mkdir -p "$q"
  while :; do
    while [ ! -e "$q/$n.job" ]; do [ -e "$q/stop" ] && return 0; _lab_nap 0.2; done
    JOB_CMD=() JOB_OUT=/dev/null JOB_CWD=/ JOB_TIMEOUT=120 JOB_PORT=
    . "$q/$n.job"
    if [ -n "$JOB_PORT" ]; then
      for ((i = 0; i < 300; i++)); do lab_port_state "$JOB_PORT" BUSY || break; _lab_nap 0.1; done
    fi
    (cd "$JOB_CWD" && exec timeout -k 5 "$JOB_TIMEOUT" "${JOB_CMD[@]}") >> "$JOB_OUT" 2>&1 & pid=$!
    up=0
    while kill -0 "$pid" 2> /dev/null; do
      if [ -n "$JOB_PORT" ] && [ $up = 0 ] && lab_port_state "$JOB_PORT" LISTEN; then _lab_put "$q/$n.listening" "$pid"; up=1; fi
      if [ -e "$q/$n.kill" ]; then
        lab_kill_tree "$pid" TERM
        for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2> /dev/null || break; _lab_nap 0.1; done
        kill -0 "$pid" 2> /dev/null && lab_kill_tree "$pid" KILL
        break
      fi
      if [ $up = 1 ] || [ -z "$JOB_PORT" ]; then _lab_nap 0.5; else _lab_nap 0.1; fi
    done
    wait "$pid"; rc=$?
    _lab_put "$q/$n.rc" "$rc"
    n=$((n + 1))
  done
}

# lab_job_start HOST OUT CWD TIMEOUT PORT CMD... -> queues CMD on HOST's agent; sets LAB_JOB (its file
# prefix). PORT may be empty.
LAB_JOB_SEQ=0
lab_job_start() {
  local host=$1 out=$2 cwd=$3 to=$4 port=$5 q=$LAB_SYNC/jobs-$1 text
  shift 5
  mkdir -p "$q"
  LAB_JOB_SEQ=$((LAB_JOB_SEQ + 1)) LAB_JOB=$q/$LAB_JOB_SEQ
  printf -v text 'JOB_OUT=%q JOB_CWD=%q JOB_TIMEOUT=%q JOB_PORT=%q\nJOB_CMD=(' "$out" "$cwd" "$to" "$port"
  printf -v text '%s%s)' "$text" "$(printf ' %q' "$@")"
  _lab_put "$LAB_JOB.job" "$text"
}
# lab_job_wait_listen SECONDS -> 0 once the job's port listens; 1 if it ended or SECONDS passed first
lab_job_wait_listen() {
  local n=$(($1 * 10))
  while ((n-- > 0)); do
    [ -e "$LAB_JOB.listening" ] && return 0
    [ -e "$LAB_JOB.rc" ] && return 1
    _lab_nap 0.1
  done
  return 1
}
# lab_job_end SECONDS -> waits until the job ended (at most SECONDS, then asks the agent to kill it and
# waits 10 s more); prints its exit status (empty if the agent never answered); rc 1 if it had to be killed
lab_job_end() {
  local n=$(($1 * 10)) rc= killed=0
  while ((n-- > 0)) && [ ! -e "$LAB_JOB.rc" ]; do _lab_nap 0.1; done
  if [ ! -e "$LAB_JOB.rc" ]; then
    killed=1; : > "$LAB_JOB.kill"
    n=100; while ((n-- > 0)) && [ ! -e "$LAB_JOB.rc" ]; do _lab_nap 0.1; done
  fi
  [ -e "$LAB_JOB.rc" ] && read -r rc < "$LAB_JOB.rc"
  echo "$rc"
  return $killed
}
# lab_job_stop HOST: the agent on HOST exits after its current job
lab_job_stop() { mkdir -p "$LAB_SYNC/jobs-$1" && : > "$LAB_SYNC/jobs-$1/stop"; }
