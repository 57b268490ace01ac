#!/bin/bash
# jperf matrix through Slurm's srun on the three-guest lab (issue #27 point 5):
#   lab/rdma-lab run --vms 3 [--scenario rail-down] lab/scripts/slurm-matrix.sh [KEY=VALUE...]
# A (Slurm's lab1, where slurmctld runs) runs
#   srun -N 3 --ntasks-per-node=1 $LAB_REPO/jperf matrix write-bw --rails rxe0,rxe1 ...
# with a fresh shared secret; B and C (lab2, lab3) only keep their slurmd until A is done. With
# --scenario rail-down rail1 of C (lab3) is down from the start: the report must name lab3 rxe1.
# Outputs in $LAB_RESULTS/matrix/: matrix.txt (the report), matrix.html, matrix.json, points.jsonl,
# srun.log (every task's stderr). Exit status: srun's (1 = a bad link, as jperf matrix says).
# The threshold is low (0.2xmedian): the three guests share the host's cores and good links spread
# 0.04-0.09 Gb/s within one run; the injected fault is a failed test, found whatever the threshold.
# Settings (KEY=VALUE): KIND=write-bw D=2 WARMUP=1 THRESHOLD=0.2xmedian TIMEOUT=30 SRUN_TIMEOUT=900
set -u
for a in "$@"; do case $a in *=*) declare "${a%%=*}=${a#*=}" ;; *) echo "slurm-matrix.sh: KEY=VALUE expected, not $a" >&2; exit 2 ;; esac; done
KIND=${KIND:-write-bw} D=${D:-2} WARMUP=${WARMUP:-1} THRESHOLD=${THRESHOLD:-0.2xmedian} TIMEOUT=${TIMEOUT:-30}
SRUN_TIMEOUT=${SRUN_TIMEOUT:-900}

if [ "$LAB_HOST" != A ]; then # slurmd (started by the lab) runs this guest's task; wait until A is done
  exec {nap}<> <(:)
  while [ ! -e "$LAB_SYNC/A.done" ] && [ ! -e "$LAB_RESULTS/.lab/status-A" ]; do read -r -t 1 -u "$nap" _; done
  exit 0
fi

out=$LAB_RESULTS/matrix
mkdir -p "$out"
trap ': > "$LAB_SYNC/A.done"' EXIT
echo "== Slurm: $(sinfo -h -o '%P %a %D %T %N')"
srun -N 3 --ntasks-per-node=1 hostname | sort | paste -sd' ' | sed 's/^/== srun -N 3 hostname: /'
limit=--fail-below; [ "$KIND" = write-lat ] && limit=--fail-above
JPERF_AUTH_TOKEN=$(head -c 24 /dev/urandom | base64)
export JPERF_AUTH_TOKEN
# the lab's members: C1 and the serial GC (one emulated vCPU each; as the scenario tests run jperf serve)
export JPERF_JAVA_OPTS="$JPERF_JAVA_OPTS -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
cmd=(srun -N 3 --ntasks-per-node=1 --chdir="$out" --kill-on-bad-exit=0
  "$LAB_REPO/jperf" matrix "$KIND" --rails rxe0,rxe1 -D "$D" --warmup "$WARMUP" "$limit" "$THRESHOLD"
  --timeout "$TIMEOUT" --start-timeout 240 --idle-timeout 600
  --html "$out/matrix.html" --out_json "$out/matrix.json" --points "$out/points.jsonl")
echo "== scenario $LAB_SCENARIO; ${cmd[*]}"
read -r t0 _ < /proc/uptime
timeout -k 10 "$SRUN_TIMEOUT" "${cmd[@]}" > "$out/matrix.txt" 2> "$out/srun.log"
rc=$?
read -r t1 _ < /proc/uptime
cat "$out/matrix.txt"
echo "== srun exit status $rc after $(echo "$t1 - $t0" | bc) s; task output: $out/srun.log"
exit $rc
