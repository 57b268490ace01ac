#!/bin/bash
# Shows what the current scenario does to each rail (lab/rdma-lab run --vms 2 --scenario NAME lab/scripts/path-probe.sh):
# per rail: route from the rail's source address to the peer, port state / active MTU, a source-bound
# ping, and a short ib_write_bw (B serves, A measures; TCP exchange over rail0, GID by address).
# Always exits 0: it reports, it does not judge.
set -uo pipefail
. "$LAB_REPO/lab/guest/lib.sh"
[ "$LAB_VMS" = 2 ] || { echo "needs --vms 2"; exit 2; }
for r in 0 1; do
  ip=LAB_IP_RAIL$r peer=LAB_PEER_IP_RAIL$r dev=LAB_DEV_RAIL$r nd=LAB_NETDEV_RAIL$r g=LAB_GID_INDEX_RAIL$r
  st=$(ibv_devinfo -d "${!dev}" | awk '/state:/{s=$2} /active_mtu/{m=$2} END{print s, "active_mtu", m}')
  echo "rail$r ${!dev}/${!nd} ip=${!ip:-none} gid=${!g:-none} $st mtu=$(cat /sys/class/net/${!nd}/mtu) operstate=$(cat /sys/class/net/${!nd}/operstate)"
  if [ -n "${!ip}" ] && [ -n "${!peer}" ]; then
    echo "  route: $(ip route get "${!peer}" from "${!ip}" 2>&1 | head -1)"
    if ping -c 2 -W 2 -I "${!ip}" "${!peer}" > /tmp/ping.txt 2>&1; then echo "  ping -I ${!ip} ${!peer}: ok"; else echo "  ping -I ${!ip} ${!peer}: FAILED ($(grep -o '[0-9]* received' /tmp/ping.txt))"; fi
  else
    echo "  no IPv4 on one side: no route/ping"
  fi
done
lab_barrier probed 300
for r in 0 1; do
  dev=LAB_DEV_RAIL$r g=LAB_GID_INDEX_RAIL$r
  [ -n "${!g}" ] || { echo "rail$r ib_write_bw: skipped (no IPv4 GID here)"; lab_barrier bw$r-up 300; lab_barrier bw$r-done 300; continue; }
  out=$LAB_RESULTS/probe-bw-rail$r.$LAB_HOST.txt
  if [ "$LAB_HOST" = B ]; then
    timeout 60 ib_write_bw -d "${!dev}" -x "${!g}" -F --report_gbits -n 200 -p $((18515 + r)) > "$out" 2>&1 & sp=$!
    sleep 2; lab_barrier bw$r-up 300; wait $sp; echo "rail$r ib_write_bw server rc=$?"
  else
    lab_barrier bw$r-up 300
    timeout 60 ib_write_bw -d "${!dev}" -x "${!g}" -F --report_gbits -n 200 -p $((18515 + r)) "$LAB_PEER_IP_RAIL0" > "$out" 2>&1; rc=$?
    line=$(grep -E '^ *65536 +200 ' "$out" | tr -s ' ')
    echo "rail$r ib_write_bw client rc=$rc: ${line:-no result: $(grep -m1 -iE 'error|fail|unable|retry' "$out")}"
  fi
  lab_barrier bw$r-done 300
done
exit 0
