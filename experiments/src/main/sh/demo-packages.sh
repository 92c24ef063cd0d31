#!/bin/bash
# What the demo's apt set-up costs on a fresh Debian 12 machine, measured without touching this one:
# a fresh root made by debootstrap (once, in DIR/base), copied to DIR/NAME, in which the demo's two
# apt-get installs run as on a fresh machine — bin/koala's build tools, then the testbed's packages
# (the PACKAGES given) — each timed (wall, user and system CPU) with the packages, download and disk
# space apt reports. Daemons are not started in the root (policy-rc.d). Docs: docs/performance.md,
# "The demo's first run on a fresh machine".
#
#   experiments/src/main/sh/demo-packages.sh DIR NAME PACKAGES...      (as root; needs debootstrap)
set -u
if [ $# -lt 3 ] || [ "$(id -u)" != 0 ]; then
  echo "usage (as root): $0 DIR NAME PACKAGES..." >&2
  exit 2
fi
dir=$1 name=$2
shift 2
root=$dir/$name
results=$dir/results.txt
mkdir -p "$dir"
if [ ! -x "$dir/base/usr/bin/apt-get" ]; then
  command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
  debootstrap bookworm "$dir/base" http://deb.debian.org/debian >"$dir/debootstrap.log" 2>&1 \
    || { echo "debootstrap failed: $dir/debootstrap.log" >&2; exit 1; }
fi
# never remove a root with this machine's /dev still mounted in it
if mount | grep -q " $root/"; then echo "$root: still mounted" >&2; exit 1; fi
rm -rf "$root"
cp -a "$dir/base" "$root"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
# a machine resolves its own name: gridengine-master's postinst needs it
cp /etc/resolv.conf /etc/hosts /etc/hostname "$root/etc/"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t sysfs sys "$root/sys"
trap 'umount "$root/sys" "$root/dev/pts" "$root/dev" "$root/proc"' EXIT
inroot() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
log=$dir/$name.log
: >"$log"
# apt-get update, then apt-get install -y -q as bin/koala's apt_install and SgePackages.install run them
step() {
  local what=$1 times=$dir/$name-$1.time t0 rc
  shift
  t0=$(date +%s.%N)
  inroot apt-get update -q >>"$log" 2>&1
  /usr/bin/time -f '%e s wall, %U s user, %S s sys' -o "$times" \
    chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    apt-get install -y -q "$@" >>"$log" 2>&1
  rc=$?
  printf '%s %s: exit %d, %.1f s with apt-get update; the install: %s; load average %s\n' "$name" "$what" "$rc" \
    "$(echo "$(date +%s.%N) - $t0" | bc)" "$(cat "$times")" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results"
}
step build-tools openjdk-17-jdk-headless maven libdrmaa1.0-java
step testbed "$@"
grep -E "newly installed|^Need to get|^After this operation|^Fetched [0-9.]+ MB" "$log" | sed "s/^/$name: /" | tee -a "$results"
