#!/bin/bash
# The main job without RDMA hardware: jperf between the lab's two ends (rxe0 <-> rxe1, one guest).
#   lab/rdma-lab demo            (builds, boots, runs this)
#   lab/rdma-lab run lab/scripts/jperf-demo.sh [extra jperf options]
# Server and client run as separate processes, their test threads pinned to separate vCPUs (--cpu).
set -uo pipefail
J="$LAB_REPO/jperf"
server_ip=$LAB_IP_RAIL0
rc=0
# Under QEMU's emulation a JVM now and then dies with SIGSEGV (exit 134) in freshly compiled JDK
# code (see lab/README.md); such a run is repeated once, its hs_err report kept in $LAB_RESULTS.
CRASHED=134
pair() { # title, then the jperf subcommand and options; server on rail0's device, client on the peer device
  local title=$1; shift
  echo; echo "=== $title: jperf $* (server ${LAB_DEV_RAIL0} $server_ip, client ${LAB_PEER_DEV_RAIL0})"
  local try cr sr
  for try in 1 2; do
    "$J" "$@" --cpu 0 -d "$LAB_DEV_RAIL0" > "$LAB_RESULTS/server.out" 2>&1 & local sp=$!
    sleep 3
    "$J" "$@" --cpu 1 -d "$LAB_PEER_DEV_RAIL0" "$server_ip"; cr=$?
    wait $sp; sr=$?
    if [ $try = 1 ] && { [ $cr = $CRASHED ] || [ $sr = $CRASHED ]; }; then
      echo "--- a JVM crashed under emulation (hs_err report in $LAB_RESULTS); running it once more"; continue
    fi
    break
  done
  [ $cr = 0 ] || rc=1
  [ $sr = 0 ] || { rc=1; echo "--- server output:"; cat "$LAB_RESULTS/server.out"; }
}
"$J" devices; d=$?
[ $d = $CRASHED ] && { echo "--- the JVM crashed under emulation; once more"; "$J" devices; d=$?; }
[ $d = 0 ] || rc=1
pair "RDMA WRITE bandwidth" write-bw --report_gbits "$@"
pair "RDMA WRITE latency" write-lat "$@"
exit $rc
