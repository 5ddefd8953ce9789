#!/bin/bash
# Build the kernel with the series under configurations the lab's own kernel
# does not use, so that a patch's #ifdef stubs are compiled and linked (a
# stub that does not compile, or a call left to a function that the
# configuration does not build, fails here):
#   notrace    tracing off (CONFIG_FTRACE, so no event tracing)
#   nohugetlb  CONFIG_HUGETLBFS off (and with it CONFIG_HUGETLB_PAGE)
#   nonuma     CONFIG_NUMA off (mm/mempolicy.c and memory tiers not built)
# Each variant starts from tinyconfig + kernel/variant.config (what the
# series' code depends on, no drivers: a variant never boots), turns its
# options off, runs olddefconfig and links vmlinux in its own object
# directory, from the patched tree kernel/build.sh --tree leaves in
# $TIERLAB_CACHE/build/patched/src.  The first time on 2 cores a variant
# takes a few minutes; after that only what a new series changes.  Prints
# one line per variant; exit 0 when all build, 1 otherwise.
#
# usage: kernel/check-configs.sh [--suffix S] [VARIANT...]
#   (default: all three variants)
#   --suffix S     build in variant-<v>-S: a test's changed tree then leaves
#                  the variants' own object directories and records alone
# env: TIERLAB_CACHE (default /var/cache/tierlab), JOBS (default nproc)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/tree-times.sh
. "$here/tree-times.sh"
# shellcheck source=kernel/ccache.sh
. "$here/ccache.sh"
# shellcheck source=kernel/kconfig.sh
. "$here/kconfig.sh"
cache=${TIERLAB_CACHE:-/var/cache/tierlab}
jobs=${JOBS:-$(nproc)}
suffix=
while [ $# -gt 0 ]; do
	case $1 in
	--suffix) suffix=-${2:?--suffix needs a word}; shift 2 ;;
	*) break ;;
	esac
done
case $suffix in *[!a-z0-9-]*) echo "kernel/check-configs.sh: --suffix: letters, digits and '-' only" >&2; exit 2 ;; esac
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(notrace nohugetlb nonuma)
for v in "${variants[@]}"; do
	case $v in
	notrace|nohugetlb|nonuma) ;;
	*) echo "kernel/check-configs.sh: unknown variant '$v' (notrace, nohugetlb, nonuma)" >&2; exit 2 ;;
	esac
done

# The tree holding exactly the current series (no bzImage is built for it):
# a test that applied other patches may have left the tree changed.
src=$("$here/build.sh" --tree -q)
key=$("$here/build.sh" --key)
work=$cache/build/patched
exec 9>"$cache/build/patched.lock"
flock 9
kernel_ccache_setup "$cache"
[ "$src" = "$work/src" ] && [ "$(cat "$work/src-series" 2>/dev/null)" = "$key" ] ||
	{ echo "kernel/check-configs.sh: $src changed while waiting for it (another build?); run again" >&2; exit 1; }

kmake() { make -C "$src" O="$obj" LOCALVERSION= "${KCC[@]+"${KCC[@]}"}" "$@" >>"$log" 2>&1; }
# configure: $obj/.config = tinyconfig + kernel/variant.config with the
# options of off[] turned off (an unchanged .config rewritten leaves make
# nothing to redo); every line of the fragment but off[] and gone[] must
# survive olddefconfig
configure() {
	local o
	kmake tinyconfig || return 1
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$here/variant.config" >>"$log" 2>&1 || return 1
	for o in "${off[@]}"; do "$src/scripts/config" --file "$obj/.config" --disable "$o" || return 1; done
	kmake olddefconfig || return 1
	kconfig_kept "$here/variant.config" "$obj/.config" "${off[@]}" "${gone[@]+"${gone[@]}"}" 2>>"$log"
}

fail=0
for v in "${variants[@]}"; do
	obj=$work/variant-$v$suffix
	log=$obj.log
	mkdir -p "$obj"
	# off: turned off; gone: what olddefconfig drops with them
	case $v in
	notrace) off=(FTRACE) gone=(ENABLE_DEFAULT_TRACERS) ;;
	nohugetlb) off=(HUGETLBFS HUGETLB_PAGE) gone=() ;;
	nonuma) off=(NUMA) gone=() ;;
	esac
	start=$SECONDS
	# make must see which series files changed since this variant's last build
	tree_times_restore "$src" "$obj.built" >/dev/null ||
		{ echo "kernel/check-configs.sh: cannot set the times of $src's patched files" >&2; exit 1; }
	export CCACHE_STATSLOG=$obj.ccache
	rm -f "$CCACHE_STATSLOG"
	: >"$log"
	if ! configure; then
		echo "$v: configuring failed (log: $log):"
		grep '^kernel/' "$log" | sed 's/^/  /'
		fail=1
		continue
	fi
	state=$(for o in TRACEPOINTS HUGETLB_PAGE NUMA; do
		grep -q "^CONFIG_$o=y" "$obj/.config" && echo "$o=y" || true
	done | tr '\n' ' ')
	rm -rf "$obj.built"	# saved again once it built
	if kmake -j"$jobs" vmlinux; then
		tree_times_save "$src" "$obj.built"
		echo "$v: ok, vmlinux built in $((SECONDS - start)) s (on: ${state:--}; ccache: $(kernel_ccache_stats "$CCACHE_STATSLOG"))"
	else
		echo "$v: FAILED after $((SECONDS - start)) s (log: $log):"
		{ grep -E 'error:|undefined reference' "$log" || grep -E 'Error' "$log"; } | head -n 10 | sed 's/^/  /'
		fail=1
	fi
done
exit $fail
