#!/bin/bash
# Self-test of the lab tool itself (host side, ~3-5 min on 2 cores):
#   lab/selftest/run-selftest.sh [--with-2vm]
# checks: devices + GIDs visible, status propagation (exit 3 -> 3), timeout (-> 124, no QEMU left),
# and with --with-2vm the two-guest smoke test. Exit 0 if every check passed.
set -uo pipefail
LAB=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
fail=0
check() { # NAME EXPECTED_RC CMD...
  local name=$1 want=$2 t=$SECONDS; shift 2
  "$@" > "/tmp/jperf-lab-selftest.$$.out" 2>&1; local rc=$?
  if [ "$rc" = "$want" ]; then echo "PASS $name (rc $rc, $((SECONDS - t))s)"
  else echo "FAIL $name: rc $rc, expected $want; output tail:"; tail -15 "/tmp/jperf-lab-selftest.$$.out"; fail=1; fi
}
our_qemu() { pgrep -f "qemu-system-x86_64.*$1" > /dev/null; }
check devices 0 "$LAB/rdma-lab" run --timeout 300 "$LAB/scripts/show-devices.sh"
grep -q 'rxe1 idx=1 gid=0000:0000:0000:0000:0000:ffff:0a14:0002 type=RoCE v2' "/tmp/jperf-lab-selftest.$$.out" || { echo "FAIL devices: rxe1 IPv4 GID not listed"; fail=1; }
check exit-status 3 "$LAB/rdma-lab" run --timeout 300 "$LAB/selftest/exit3.sh"
res=$(mktemp -d /tmp/jperf-lab-selftest-XXXXXX); rmdir "$res"
check timeout 124 "$LAB/rdma-lab" run --timeout 45 --results "$res" "$LAB/selftest/sleep-forever.sh"
if our_qemu "$res"; then echo "FAIL timeout: QEMU still running"; fail=1; else echo "PASS no QEMU left after timeout"; fi
if [ "${1:-}" = --with-2vm ]; then check two-host-smoke 0 "$LAB/rdma-lab" run --vms 2 --timeout 600 "$LAB/scripts/two-host-smoke.sh"; fi
rm -f "/tmp/jperf-lab-selftest.$$.out"
exit $fail
