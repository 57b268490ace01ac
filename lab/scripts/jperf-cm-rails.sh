#!/bin/bash
# jperf -R across the two-guest lab, on each rail (lab/rdma-lab run --vms 2 lab/scripts/jperf-cm-rails.sh):
# B serves, A connects with RDMA CM; A's CM id is bound to the rail's source address (-d implies it),
# so source-based policy routing must pick that rail. Checks, per rail, that the result's rdma_cm
# section names that rail's device with a consistent route, and that the rail's netdev carried the
# traffic (tx bytes on A) while the other rail stayed quiet. Exit 0 only if everything held.
set -uo pipefail
. "$LAB_REPO/lab/guest/lib.sh"
[ "$LAB_VMS" = 2 ] || { echo "needs --vms 2"; exit 2; }
J=$LAB_REPO/jperf
fail=0
bytes() { cat "/sys/class/net/$1/statistics/tx_bytes"; }
for r in 0 1; do
  dev=LAB_DEV_RAIL$r nd=LAB_NETDEV_RAIL$r ip=LAB_IP_RAIL$r peer=LAB_PEER_IP_RAIL$r
  other=LAB_NETDEV_RAIL$((1 - r))
  port=$((18600 + r))
  for t in write-bw write-lat; do
    out=$LAB_RESULTS/cm-rail$r-$t.$LAB_HOST
    if [ "$LAB_HOST" = B ]; then
      timeout 240 "$J" "$t" -R -d "${!dev}" --bind_source_ip "${!ip}" -p $port -n 300 --json > "$out.json" 2> "$out.err" & sp=$!
      sleep 12; lab_barrier "rail$r-$t-up" 300 || exit 1
      wait $sp; rc=$?; [ $rc = 0 ] || { echo "B rail$r $t server rc=$rc"; cat "$out.err"; fail=1; }
    else
      lab_barrier "rail$r-$t-up" 300 || exit 1
      before=$(bytes "${!nd}") before_other=$(bytes "${!other}")
      timeout 240 "$J" "$t" -R -d "${!dev}" -p $port -n 300 --json "${!peer}" > "$out.json" 2> "$out.err"; rc=$?
      sent=$(( $(bytes "${!nd}") - before )) sent_other=$(( $(bytes "${!other}") - before_other ))
      dev_used=$(grep -A3 '"rdma_cm"' "$out.json" | sed -n 's/.*"device": "\([^"]*\)".*/\1/p' | head -1)
      consistent=$(sed -n 's/.*"route_consistent": \(true\|false\).*/\1/p' "$out.json" | head -1)
      echo "rail$r $t: rc=$rc CM device=${dev_used:-?} route_consistent=${consistent:-?} tx ${!nd}=${sent}B ${!other}=${sent_other}B"
      if [ $rc != 0 ]; then cat "$out.err"; fail=1; fi
      [ "$dev_used" = "${!dev}" ] || { echo "  FAIL: expected the CM to resolve through ${!dev}"; fail=1; }
      [ "$consistent" = true ] || { echo "  FAIL: route not consistent"; fail=1; }
      [ "$sent" -gt "$sent_other" ] || { echo "  FAIL: ${!nd} did not carry the traffic"; fail=1; }
    fi
  done
done
lab_barrier done 300
exit $fail
