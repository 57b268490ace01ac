# jperf RDMA lab: helpers for scripts running inside a lab guest.  Usage:  . "$LAB_REPO/lab/guest/lib.sh"
# Everything here avoids forks where it can: under QEMU TCG every fork costs ~50 ms.

# lab_gid_index DEV IPV4 -> prints the GID index of the RoCE v2 GID ::ffff:IPV4 on DEV port 1 (empty + rc 1 if none).
# Never use a fixed GID index: 0 is the link-local fe80 GID, each IPv4 address adds one entry.
lab_gid_index() {
  local dev=$1 ip=$2 hex i v ty d=/sys/class/infiniband/$1/ports/1
  [ -n "$ip" ] && [ -d "$d/gids" ] || return 1
  local IFS=.; set -- $ip; IFS=' '
  printf -v hex '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
  for ((i = 0; i < 1024; i++)); do
    [ -r "$d/gids/$i" ] || break
    read -r v < "$d/gids/$i" || continue
    if [ "$v" = "$hex" ]; then
      ty=; read -r ty < "$d/gid_attrs/types/$i" 2>/dev/null
      [ "$ty" = "RoCE v2" ] || continue
      echo "$i"; return 0
    fi
  done
  return 1
}

# lab_gids [DEV...] -> "dev idx gid type ndev" for every non-empty GID (default: all rdma devices)
lab_gids() {
  local d g i v ty nd devs=("$@")
  [ ${#devs[@]} -gt 0 ] || { for d in /sys/class/infiniband/*; do [ -e "$d" ] && devs+=("${d##*/}"); done; }
  for d in "${devs[@]}"; do
    for ((i = 0; i < 1024; i++)); do
      g=/sys/class/infiniband/$d/ports/1/gids/$i
      [ -r "$g" ] || break
      read -r v < "$g" 2>/dev/null || continue
      [ "$v" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
      ty=; nd=
      read -r ty < "/sys/class/infiniband/$d/ports/1/gid_attrs/types/$i" 2>/dev/null
      read -r nd < "/sys/class/infiniband/$d/ports/1/gid_attrs/ndevs/$i" 2>/dev/null
      echo "$d idx=$i gid=$v type=$ty ndev=$nd"
    done
  done
}

# lab_barrier NAME [TIMEOUT_S=600] -> with --vms 2 or 3: waits until every other guest ($LAB_HOSTS, else
# $LAB_PEER_HOST) reached the same barrier. Marker files in $LAB_SYNC (the shared results folder). No-op with --vms 1.
lab_barrier() {
  local name=$1 to=${2:-600} start now h
  [ "${LAB_VMS:-1}" -ge 2 ] || return 0
  : > "$LAB_SYNC/$LAB_HOST.$name"
  read -r start _ < /proc/uptime; start=${start%.*}
  for h in ${LAB_HOSTS:-$LAB_PEER_HOST}; do
    [ "$h" = "$LAB_HOST" ] && continue
    while [ ! -e "$LAB_SYNC/$h.$name" ]; do
      read -r now _ < /proc/uptime; now=${now%.*}
      if ((now - start > to)); then echo "lab_barrier $name: host $h did not arrive within ${to}s" >&2; return 1; fi
      sleep 0.3
    done
  done
}

# lab_uptime -> guest uptime in seconds (no fork)
lab_uptime() { local u; read -r u _ < /proc/uptime; echo "$u"; }
