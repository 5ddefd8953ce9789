#!/bin/bash
# Build the guest's base initramfs (an uncompressed newc cpio: the kernel
# unpacks it faster than a compressed one and QEMU loads it by memcpy).
#
#   guest/mkinitramfs.sh OUT.cpio GUEST-BIN-DIR [EXTRA-PROGRAM...]
#
# Holds busybox-static, /init, every executable of GUEST-BIN-DIR in /bin,
# and each EXTRA-PROGRAM (fio, stress-ng, numastat ...) with exactly the
# shared libraries its ELF headers resolve to (ldd), at the same paths;
# the fio and stress-ng jobs of workloads/ in /lab/workloads (for wlrun).
set -euo pipefail
out=$1 bindir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/tierlab-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,proc,sys,dev,tmp,lab,etc,root}
cp /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$here/init" "$stage/init"
for f in "$bindir"/*; do
	[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$stage/bin/"
done
mkdir -p "$stage/lab/workloads"
for f in "$here"/../workloads/*.fio "$here"/../workloads/*.job; do
	[ -f "$f" ] && cp "$f" "$stage/lab/workloads/"
done
for prog in "$@"; do
	path=$(command -v "$prog") || { echo "mkinitramfs: $prog: not installed" >&2; exit 1; }
	cp -L "$path" "$stage/bin/"
	# Copy the resolved libraries and the dynamic loader, keeping paths.
	ldd "$path" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do
		[ -e "$lib" ] || continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
done
# root, and the unprivileged user and group that test suites run things as
# (uid/gid 65534; "nogroup" is Debian's name for the group, "nobody" others').
printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	"nobody:x:65534:65534:nobody:/nonexistent:/bin/false" > "$stage/etc/passwd"
printf '%s\n' "root:x:0:" "nobody:x:65534:" "nogroup:x:65534:" > "$stage/etc/group"
(cd "$stage" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --reproducible) > "$out.tmp"
mv "$out.tmp" "$out"
