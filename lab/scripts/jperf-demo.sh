#!/bin/bash
# The main job without RDMA hardware: jperf between the lab's two ends (rxe0 <-> rxe1, one guest).
#   lab/rdma-lab demo            (builds, boots, runs this)
#   lab/rdma-lab run lab/scripts/jperf-demo.sh [extra jperf options]
# Server and client run as separate processes, their test threads pinned to separate vCPUs (--cpu).
set -uo pipefail
J="$LAB_REPO/jperf"
server_ip=$LAB_IP_RAIL0
rc=0
# A JVM that dies from a signal (exit >= 128: the emulation fault of lab/README.md) is reported with
# its hs_err report (in the results folder, jperf's JVMs write it there), never run again.
crashed() { [ "$1" -ge 128 ] && echo "--- a JVM died from signal $(($1 - 128)) (exit $1): a lost result; hs_err: $(ls "$LAB_RESULTS"/hs_err_pid*.log 2> /dev/null | paste -sd' ')"; }
pair() { # title, then the jperf subcommand and options; server on rail0's device, client on the peer device
  local title=$1; shift
  echo; echo "=== $title: jperf $* (server ${LAB_DEV_RAIL0} $server_ip, client ${LAB_PEER_DEV_RAIL0})"
  local cr sr
  "$J" "$@" --cpu 0 -d "$LAB_DEV_RAIL0" > "$LAB_RESULTS/server.out" 2>&1 & local sp=$!
  sleep 3
  "$J" "$@" --cpu 1 -d "$LAB_PEER_DEV_RAIL0" "$server_ip"; cr=$?
  wait $sp; sr=$?
  crashed $cr; crashed $sr
  [ $cr = 0 ] || rc=1
  [ $sr = 0 ] || { rc=1; echo "--- server output:"; cat "$LAB_RESULTS/server.out"; }
}
"$J" devices; d=$?
crashed $d
[ $d = 0 ] || rc=1
pair "RDMA WRITE bandwidth" write-bw --report_gbits "$@"
pair "RDMA WRITE latency" write-lat "$@"
exit $rc
