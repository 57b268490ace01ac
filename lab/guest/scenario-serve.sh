#!/bin/bash
# jperf RDMA lab, scenario tests (lab/rdma-lab test --vms 2 / lab/rdma-lab scenarios), guest B's side:
# runs `jperf serve` (one JVM) for guest A's LabScenarioVerdictTest, announces it with
# $LAB_SYNC/B.serving once it listens, and stops it when A is done ($LAB_SYNC/A.done or A's status
# file) or after --idle-timeout. Exit status: 0, or the server's own status when it died before A
# was done (e.g. 134: a JVM crash under emulation, which rdma-lab reruns once).
# Only builtins in the polling loop: a fork costs ~50 ms under TCG and this guest has one vCPU.
set -u
port=${SCENARIO_SERVE_PORT:-18600}
log=$LAB_RESULTS/serve-$LAB_HOST.log
"$LAB_REPO/jperf" serve -p "$port" --timeout 30 --idle-timeout 300 > "$log" 2>&1 &
pid=$!
exec {nap}<> <(:) # read -t on a pipe nobody writes to: a sleep without a fork

listening() {
  local l
  while IFS= read -r l; do [[ $l == *"listening on TCP port"* ]] && return 0; done < "$log"
  return 1
}

up=0 rc=0 done_by_a=0
while kill -0 "$pid" 2> /dev/null; do
  if [ $up = 0 ] && listening; then
    : > "$LAB_SYNC/$LAB_HOST.serving"; up=1
    read -r u _ < /proc/uptime
    echo "jperf serve listening on port $port (guest uptime ${u}s)"
  fi
  if [ -e "$LAB_SYNC/A.done" ] || [ -e "$LAB_RESULTS/.lab/status-A" ]; then done_by_a=1; break; fi
  read -t 0.3 -u "$nap" _
done
if [ $done_by_a = 1 ]; then
  kill "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
else
  wait "$pid"; rc=$?
  echo "jperf serve stopped by itself (status $rc) before A was done"
fi
echo "--- jperf serve output ($log):"
while IFS= read -r l; do echo "$l"; done < "$log"
exit $rc
