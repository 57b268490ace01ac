#!/bin/bash
# Two-guest smoke test (lab/rdma-lab run --vms 2 lab/scripts/two-host-smoke.sh):
# each host pings its peer on both rails (source-bound), then a short ib_write_bw on rail1
# (server on B, client on A, TCP exchange, GID index chosen by address). Exit 0 only if all passed.
set -uo pipefail
. "$LAB_REPO/lab/guest/lib.sh"
[ "$LAB_VMS" = 2 ] || { echo "needs --vms 2"; exit 2; }
fail=0
for r in 0 1; do
  ip=LAB_IP_RAIL$r peer=LAB_PEER_IP_RAIL$r nd=LAB_NETDEV_RAIL$r
  echo "rail$r: $(ip route get "${!peer}" from "${!ip}" | head -1)"
  if ping -c 2 -W 2 -I "${!ip}" "${!peer}" > "$LAB_RESULTS/ping-rail$r-$LAB_HOST.txt" 2>&1; then
    echo "rail$r: ping ${!ip} -> ${!peer} ok ($(grep -o 'rtt.*' "$LAB_RESULTS/ping-rail$r-$LAB_HOST.txt"))"
  else echo "rail$r: ping ${!ip} -> ${!peer} FAILED"; fail=1; fi
done
lab_barrier pinged 300 || exit 1
out=$LAB_RESULTS/rail1_write_bw.$LAB_HOST.txt
if [ "$LAB_HOST" = B ]; then
  timeout 180 ib_write_bw -d "$LAB_DEV_RAIL1" -x "$LAB_GID_INDEX_RAIL1" -F --report_gbits -s 65536 -n 500 > "$out" 2>&1 & sp=$!
  sleep 2; lab_barrier server-up 300 || exit 1
  wait $sp; rc=$?; echo "ib_write_bw server rc=$rc"; [ $rc = 0 ] || { tail -5 "$out"; fail=1; }
else
  lab_barrier server-up 300 || exit 1
  timeout 180 ib_write_bw -d "$LAB_DEV_RAIL1" -x "$LAB_GID_INDEX_RAIL1" -F --report_gbits -s 65536 -n 500 "$LAB_PEER_IP_RAIL1" > "$out" 2>&1; rc=$?
  line=$(grep -E '^ *65536 +500 ' "$out" || true)
  echo "ib_write_bw rail1 client rc=$rc: ${line:-no result line}"
  bw=$(awk '{print $4}' <<< "$line")
  if [ $rc != 0 ] || [ -z "$bw" ] || [ "$(echo "$bw > 0" | bc)" != 1 ]; then echo "ib_write_bw FAILED (0/no bandwidth = failed measurement)"; tail -5 "$out"; fail=1; fi
fi
rdma statistic show link "$LAB_DEV_RAIL1/1" | tr -s ' ' '\n' | grep -A1 -E '^(sent_pkts|rcvd_pkts)$' | paste - - | tr '\n' ' '; echo
lab_barrier done 300
exit $fail
