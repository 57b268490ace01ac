# jperf RDMA lab: guest network + rxe setup. Sourced by stage2.sh (bash, PID 1) with LAB_HOST, LAB_VMS,
# LAB_SCENARIO set; defines the LAB_* address/device variables (see lab/README.md, "Guest environment").
#
# --vms 1: one veth pair in the single guest; rxe0 on veth0 (10.20.0.1), rxe1 on veth1 (10.20.0.2).
#   Policy routing makes locally generated traffic between the two addresses really cross the veth
#   (instead of 'lo'): per-destination rules (iif lo) -> per-end tables, local table moved after them,
#   static neighbours, rp_filter=0 and accept_local=1.
# --vms 2: hosts A (n=1) and B (n=2), two virtio-net rails each; rail N of A is wired to rail N of B.
#   railR: 10.20.R.n/24 on netdev railR, rxeR on railR; one routing table per rail (100+R) selected
#   by source address (ip rule from 10.20.R.n); arp_ignore=1, arp_announce=2, rp_filter=2.
# --vms 3: hosts A, B, C (n=1, 2, 3) set up as with --vms 2, rail R of all three on one shared L2
#   segment (a QEMU multicast socket per rail); the LAB_PEER_* variables name the next host (A->B->C->A).
# Scenarios (--scenario) deliberately break that configuration, see lab_scenario_check.

lab_sysctl() { # lab_sysctl net.ipv4.conf.all.rp_filter 0   (writes /proc/sys directly: no fork)
  local p=/proc/sys/${1//.//}
  echo "$2" > "$p" || echo "[lab-net] WARNING: sysctl $1=$2 failed"
}

# lab_scenario_check VMS SCENARIO -> rc 0 if supported (also used on the host side)
lab_scenario_check() {
  case "$1:$2" in
    1:multirail|1:mtu-mismatch|1:rail-down) return 0 ;;
    2:multirail|2:single-default-route|2:asymmetric|2:mtu-mismatch|2:rail-down|2:no-ipv4) return 0 ;;
    3:multirail|3:rail-down) return 0 ;;
  esac
  return 1
}

lab_wait_gid() { # DEV IP: wait (max 30 s) until the RoCE v2 IPv4 GID of IP exists on DEV
  local i
  for ((i = 0; i < 100; i++)); do lab_gid_index "$1" "$2" > /dev/null && return 0; sleep 0.3; done
  echo "[lab-net] ERROR: no RoCE v2 GID for $2 on $1 after 30 s"; return 1
}

lab_rxe_add() { # RXE NETDEV
  rdma link add "$1" type rxe netdev "$2" || { echo "[lab-net] ERROR: rdma link add $1 netdev $2 failed"; return 1; }
}

lab_net_setup_1vm() {
  local a=10.20.0.1 b=10.20.0.2 mtu1=9000 ma mb k
  [ "$LAB_SCENARIO" = mtu-mismatch ] && mtu1=1500
  for k in all default; do lab_sysctl net.ipv4.conf.$k.rp_filter 0; lab_sysctl net.ipv4.conf.$k.accept_local 1; done
  ip link add veth0 type veth peer name veth1 || return 1
  for k in veth0 veth1; do lab_sysctl net.ipv4.conf.$k.rp_filter 0; lab_sysctl net.ipv4.conf.$k.accept_local 1; done
  read -r ma < /sys/class/net/veth0/address; read -r mb < /sys/class/net/veth1/address
  ip -batch - <<< "addr add $a/24 dev veth0
addr add $b/24 dev veth1
link set veth0 mtu 9000 up
link set veth1 mtu $mtu1 up
rule add pref 10 iif lo to $b lookup 102
rule add pref 11 iif lo to $a lookup 101
route add $b dev veth0 src $a table 102
route add $a dev veth1 src $b table 101
rule add pref 1000 lookup local
rule del pref 0 lookup local
neigh replace $b lladdr $mb dev veth0 nud permanent
neigh replace $a lladdr $ma dev veth1 nud permanent" || return 1
  lab_rxe_add rxe0 veth0 && lab_rxe_add rxe1 veth1 || return 1
  lab_wait_gid rxe0 $a && lab_wait_gid rxe1 $b || return 1
  [ "$LAB_SCENARIO" = rail-down ] && { ip link set veth1 down || return 1; }
  LAB_RAILS=1
  LAB_DEV_RAIL0=rxe0 LAB_NETDEV_RAIL0=veth0 LAB_IP_RAIL0=$a
  LAB_PEER_DEV_RAIL0=rxe1 LAB_PEER_NETDEV_RAIL0=veth1 LAB_PEER_IP_RAIL0=$b
  LAB_GID_INDEX_RAIL0=$(lab_gid_index rxe0 $a) LAB_PEER_GID_INDEX_RAIL0=$(lab_gid_index rxe1 $b)
  return 0
}

lab_net_setup_2vm() {
  local n p f mac dev k r ip arp_ignore=1 arp_announce=2 rp=2 sc=$LAB_SCENARIO
  if [ "$LAB_HOST" = A ]; then n=1; p=2; else n=2; p=1; fi
  [ "${LAB_VMS:-2}" = 3 ] && { n=$(lab_host_number "$LAB_HOST"); p=$((n % 3 + 1)); }
  # name the NICs by MAC: 52:54:00:4c:0H:0R -> railR
  for f in /sys/class/net/*; do
    read -r mac < "$f/address" 2>/dev/null || continue
    case $mac in 52:54:00:4c:0?:0?) ip link set "${f##*/}" name "rail${mac: -1}" || return 1 ;; esac
  done
  [ -d /sys/class/net/rail0 ] && [ -d /sys/class/net/rail1 ] || { echo "[lab-net] ERROR: rail0/rail1 NICs not found"; return 1; }
  [ "$sc" = single-default-route ] && { arp_ignore=0; arp_announce=0; rp=0; }
  for k in all default rail0 rail1; do
    lab_sysctl net.ipv4.conf.$k.rp_filter $rp
    lab_sysctl net.ipv4.conf.$k.arp_ignore $arp_ignore
    lab_sysctl net.ipv4.conf.$k.arp_announce $arp_announce
  done
  local mtu1=9000; [ "$sc" = mtu-mismatch ] && [ "$LAB_HOST" = B ] && mtu1=1500
  local ipb="link set rail0 mtu 9000 up"$'\n'"link set rail1 mtu $mtu1 up"$'\n'
  for r in 0 1; do
    ip=10.20.$r.$n
    if [ "$sc" = no-ipv4 ] && [ "$LAB_HOST" = A ] && [ $r = 1 ]; then
      printf -v "LAB_IP_RAIL$r" '%s' ""                 # rail1 of A: IPv6 link-local only
    elif [ "$sc" = single-default-route ] || { [ "$sc" = asymmetric ] && [ "$LAB_HOST" = B ] && [ $r = 1 ]; }; then
      ipb+="addr add $ip/24 dev rail$r noprefixroute"$'\n'   # no connected route, no per-rail table/rule
      printf -v "LAB_IP_RAIL$r" '%s' "$ip"
    else
      ipb+="addr add $ip/24 dev rail$r"$'\n'
      ipb+="route add 10.20.$r.0/24 dev rail$r src $ip table 10$r"$'\n'
      ipb+="rule add pref 10$r from $ip lookup 10$r"$'\n'
      printf -v "LAB_IP_RAIL$r" '%s' "$ip"
    fi
    printf -v "LAB_PEER_IP_RAIL$r" '%s' "10.20.$r.$p"
  done
  [ "$sc" = no-ipv4 ] && [ "$LAB_HOST" = B ] && LAB_PEER_IP_RAIL1=
  # single-default-route: everything leaves through rail0; asymmetric: B's replies for rail1 fall to rail0
  if [ "$sc" = single-default-route ] || { [ "$sc" = asymmetric ] && [ "$LAB_HOST" = B ]; }; then
    ipb+="route add default dev rail0"$'\n'
  fi
  ip -batch - <<< "$ipb" || return 1
  lab_rxe_add rxe0 rail0 && lab_rxe_add rxe1 rail1 || return 1
  for r in 0 1; do
    local v=LAB_IP_RAIL$r
    [ -n "${!v}" ] && { lab_wait_gid rxe$r "${!v}" || return 1; }
    printf -v "LAB_DEV_RAIL$r" rxe$r; printf -v "LAB_NETDEV_RAIL$r" rail$r
    printf -v "LAB_PEER_DEV_RAIL$r" rxe$r; printf -v "LAB_PEER_NETDEV_RAIL$r" rail$r
    printf -v "LAB_GID_INDEX_RAIL$r" '%s' "$(lab_gid_index rxe$r "${!v}")"
  done
  # rail-down: rail1 of the last host (B of two, C of three)
  if [ "$sc" = rail-down ] && [ "$LAB_HOST" = "$(lab_last_host)" ]; then ip link set rail1 down || return 1; fi
  LAB_RAILS=2
  return 0
}

lab_host_number() { case $1 in A) echo 1 ;; B) echo 2 ;; C) echo 3 ;; *) return 1 ;; esac; } # A -> 1 (10.20.R.1)
lab_last_host() { case ${LAB_VMS:-1} in 3) echo C ;; 2) echo B ;; *) echo A ;; esac; }

# Snapshot of the resulting configuration (for humans and path tests): $1 = file
lab_net_snapshot() {
  {
    echo "# host $LAB_HOST, --vms $LAB_VMS, scenario $LAB_SCENARIO"
    echo "## ip -br link"; ip -br link
    echo "## ip -br addr"; ip -br addr
    echo "## ip rule"; ip rule
    echo "## ip route show table all (no local/ipv6)"; ip route show table all | grep -v -e '^local' -e '^broadcast'
    echo "## ip neigh"; ip neigh
    echo "## rdma link"; rdma link
    echo "## GIDs"; lab_gids
  } > "$1" 2>&1
}
