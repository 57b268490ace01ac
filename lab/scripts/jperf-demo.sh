#!/bin/bash
# The main job without RDMA hardware: jperf between the lab's two ends (rxe0 <-> rxe1, one guest).
#   lab/rdma-lab demo            (builds, boots, runs this)
#   lab/rdma-lab run lab/scripts/jperf-demo.sh [extra jperf options]
# Server and client run as separate processes on separate vCPUs, like two hosts.
set -uo pipefail
J="$LAB_REPO/jperf"
server_ip=$LAB_IP_RAIL0
rc=0
pair() { # title, then the jperf subcommand and options; server on rail0's device, client on the peer device
  local title=$1; shift
  echo; echo "=== $title: jperf $* (server ${LAB_DEV_RAIL0} $server_ip, client ${LAB_PEER_DEV_RAIL0})"
  taskset -c 0 "$J" "$@" -d "$LAB_DEV_RAIL0" > "$LAB_RESULTS/server.out" 2>&1 & local sp=$!
  sleep 3
  taskset -c 1 "$J" "$@" -d "$LAB_PEER_DEV_RAIL0" "$server_ip" || rc=1
  wait $sp || { rc=1; echo "--- server output:"; cat "$LAB_RESULTS/server.out"; }
}
"$J" devices || rc=1
pair "RDMA WRITE bandwidth" write-bw --report_gbits "$@"
pair "RDMA WRITE latency" write-lat "$@"
exit $rc
