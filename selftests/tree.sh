#!/bin/bash
# Copy what tools/testing/selftests/mm needs to build out of the lab's
# patched 6.12 tree into OUT (a new directory, put in place whole):
#
#   selftests/tree.sh OUT [KSRC]
#
#   OUT/tools/testing/selftests/{kselftest.h,kselftest_harness.h,mm/}
#   OUT/tools/include/          (TOOLS_INCLUDES of the kernel's lib.mk)
#   OUT/mm/gup_test.h           (cow.c, gup_test.c include it by a relative path)
#   OUT/include/vdso/time64.h   (ksm_tests.c: <include/vdso/time64.h>)
#   OUT/usr/include/            (`make headers` of the tree: the 6.12 UAPI,
#                                the lab's series included, which Debian 12's
#                                6.1 linux-libc-dev lacks: PAGEMAP_SCAN, mseal ...)
#
# The tree is the one kernel/build.sh builds the patched kernel from
# (--tree; it waits for a build in progress and its lock is held, shared,
# while we read).  KSRC: another kernel tree instead, read as it is.  Nothing
# is written into the tree: the headers are made with O= in OUT.
set -euo pipefail
out=${1:?usage: selftests/tree.sh OUT [KSRC]}
ksrc=${2:-}
# absolute: make -C runs in the kernel tree, and O= must not land there
out=$(realpath -m "$out")
here=$(cd "$(dirname "$0")" && pwd)
cache=${TIERLAB_CACHE:-/var/cache/tierlab}
rm -rf "$out"
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$out.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

lock=/dev/null
if [ -z "$ksrc" ]; then
	ksrc=$("$here/../kernel/build.sh" --tree -q) || { echo "selftests/tree.sh: kernel/build.sh --tree failed" >&2; exit 1; }
	lock=$cache/build/patched.lock
fi
[ -f "$ksrc/tools/testing/selftests/mm/Makefile" ] || { echo "selftests/tree.sh: $ksrc: no tools/testing/selftests/mm" >&2; exit 1; }

copy() {
	set -e
	mkdir -p "$tmp/tools/testing/selftests" "$tmp/mm"
	cp -a "$ksrc/tools/testing/selftests/mm" "$ksrc/tools/testing/selftests/kselftest.h" \
		"$ksrc/tools/testing/selftests/kselftest_harness.h" "$tmp/tools/testing/selftests/"
	cp -a "$ksrc/tools/include" "$tmp/tools/"
	cp -a "$ksrc/mm/gup_test.h" "$tmp/mm/"
	mkdir -p "$tmp/include/vdso"
	cp -a "$ksrc/include/vdso/time64.h" "$tmp/include/vdso/"
	case $tmp in /*) ;; *) echo "selftests/tree.sh: $tmp: not absolute" >&2; return 1 ;; esac
	make -s -C "$ksrc" O="$tmp/khdr" headers >"$tmp/headers.log" 2>&1 ||
		{ echo "selftests/tree.sh: make headers in $ksrc failed:" >&2; tail -n 20 "$tmp/headers.log" >&2; return 1; }
}
# shellcheck disable=SC2094
if [ "$lock" = /dev/null ]; then copy; else (flock -s 9; copy) 9<"$lock"; fi
mv "$tmp/khdr/usr" "$tmp/usr"
rm -rf "$tmp/khdr" "$tmp/headers.log"
echo "$ksrc" > "$tmp/KSRC"
mv "$tmp" "$out"
trap - EXIT
