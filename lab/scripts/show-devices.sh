#!/bin/bash
# Lab smoke test: lists the guest's RDMA devices, their GIDs and the lab environment.
#   lab/rdma-lab run [--vms 2] lab/scripts/show-devices.sh
set -euo pipefail
. "$LAB_REPO/lab/guest/lib.sh"
echo "host $LAB_HOST of $LAB_VMS, scenario $LAB_SCENARIO, kernel $(uname -r), cwd $PWD"
env | grep '^LAB_' | sort
rdma link
ibv_devices
lab_gids
for r in $(seq 0 $((LAB_RAILS - 1))); do
  d=LAB_DEV_RAIL$r ip=LAB_IP_RAIL$r g=LAB_GID_INDEX_RAIL$r
  echo "rail$r: ${!d} ip=${!ip:-none} gid_index=${!g:-none} active_mtu=$(ibv_devinfo -d "${!d}" | awk '/active_mtu/{print $2}')"
done
echo "results folder: $LAB_RESULTS"; date > "$LAB_RESULTS/show-devices-$LAB_HOST.txt"
