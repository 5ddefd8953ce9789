#!/bin/bash
# Build the kernel with the series under configurations the lab's own kernel
# does not use, so that a patch's #ifdef stubs are compiled and linked (a
# stub that does not compile, or a call left to a function that the
# configuration does not build, fails here):
#   notrace    tracing off (CONFIG_FTRACE, so no event tracing)
#   nohugetlb  CONFIG_HUGETLBFS off (and with it CONFIG_HUGETLB_PAGE)
#   nonuma     CONFIG_NUMA off (mm/mempolicy.c and memory tiers not built)
# Each variant starts from the lab kernel's configuration, turns its options
# off, runs olddefconfig and links vmlinux in its own object directory, from
# the patched tree kernel/build.sh leaves in $TIERLAB_CACHE/build/patched/src
# (~4 min each the first time on 2 cores, then only what a new series
# changes).  Prints one line per variant; exit 0 when all build, 1 otherwise.
#
# usage: kernel/check-configs.sh [VARIANT...]     (default: all three)
# env: TIERLAB_CACHE (default /var/cache/tierlab), JOBS (default nproc)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/tree-times.sh
. "$here/tree-times.sh"
cache=${TIERLAB_CACHE:-/var/cache/tierlab}
jobs=${JOBS:-$(nproc)}
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(notrace nohugetlb nonuma)
for v in "${variants[@]}"; do
	case $v in
	notrace|nohugetlb|nonuma) ;;
	*) echo "kernel/check-configs.sh: unknown variant '$v' (notrace, nohugetlb, nonuma)" >&2; exit 2 ;;
	esac
done

# The patched kernel (built once; its .config is the variants' start), and
# its tree holding exactly the current series: a cache hit does not touch
# the tree, which a test applying other patches may have left changed.
kdir=$("$here/build.sh" -q)
src=$("$here/build.sh" --tree -q)
work=$cache/build/patched
exec 9>"$cache/build/patched.lock"
flock 9
[ -f "$kdir/config" ] || { echo "kernel/check-configs.sh: $kdir/config missing" >&2; exit 1; }
key=$(sed -n 's/^key=//p' "$kdir/info")
[ "$src" = "$work/src" ] && [ "$(cat "$work/src-series" 2>/dev/null)" = "$key" ] ||
	{ echo "kernel/check-configs.sh: $src changed while waiting for it (another build?); run again" >&2; exit 1; }

fail=0
for v in "${variants[@]}"; do
	obj=$work/variant-$v
	log=$obj.log
	mkdir -p "$obj"
	cp "$kdir/config" "$obj/.config"
	case $v in
	notrace) off=(FTRACE) ;;
	nohugetlb) off=(HUGETLBFS HUGETLB_PAGE) ;;
	nonuma) off=(NUMA) ;;
	esac
	for o in "${off[@]}"; do "$src/scripts/config" --file "$obj/.config" --disable "$o"; done
	start=$SECONDS
	# make must see which series files changed since this variant's last build
	tree_times_restore "$src" "$obj.built" >/dev/null ||
		{ echo "kernel/check-configs.sh: cannot set the times of $src's patched files" >&2; exit 1; }
	if ! make -C "$src" O="$obj" LOCALVERSION= olddefconfig >"$log" 2>&1; then
		echo "$v: olddefconfig failed (log: $log)"
		fail=1
		continue
	fi
	state=$(for o in TRACEPOINTS HUGETLB_PAGE NUMA; do
		grep -q "^CONFIG_$o=y" "$obj/.config" && echo "$o=y" || true
	done | tr '\n' ' ')
	rm -rf "$obj.built"	# saved again once it built
	if make -C "$src" O="$obj" LOCALVERSION= -j"$jobs" vmlinux >>"$log" 2>&1; then
		tree_times_save "$src" "$obj.built"
		echo "$v: ok, vmlinux built in $((SECONDS - start)) s (on: ${state:--})"
	else
		echo "$v: FAILED after $((SECONDS - start)) s (log: $log):"
		{ grep -E 'error:|undefined reference' "$log" || grep -E 'Error' "$log"; } | head -n 10 | sed 's/^/  /'
		fail=1
	fi
done
exit $fail
