#!/bin/bash
# Compile the code the series touches under configurations the lab's own
# kernel does not use, so that a patch's #ifdef stubs are compiled (a stub
# that does not compile fails here; the objects are not linked, so a
# declaration without any definition would not):
#   notrace    tracing off (CONFIG_FTRACE, so no event tracing)
#   nohugetlb  CONFIG_HUGETLBFS off (and with it CONFIG_HUGETLB_PAGE)
#   nonuma     CONFIG_NUMA off (mm/mempolicy.c and memory tiers not built)
# Each variant starts from the lab kernel's configuration, turns its options
# off, runs olddefconfig and builds the directories the series touches (mm/,
# drivers/base/, kernel/sysctl.o) in its own object directory, from the
# patched tree kernel/build.sh leaves in $TIERLAB_CACHE/build/patched/src.
# Prints one line per variant; exit 0 when all compile, 1 otherwise.
#
# usage: kernel/check-configs.sh [VARIANT...]     (default: all three)
# env: TIERLAB_CACHE (default /var/cache/tierlab), JOBS (default nproc)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
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

# The patched tree, with the current series applied and built once.
kdir=$("$here/build.sh" -q)
work=$cache/build/patched
exec 9>"$cache/build/patched.lock"
flock 9
src=$work/src
[ -f "$kdir/config" ] || { echo "kernel/check-configs.sh: $kdir/config missing" >&2; exit 1; }
# build.sh restores the tree to pristine + series; check that nobody changed it since
series_hash=$(sed -n 's/^series_hash=//p' "$kdir/info")
grep -q "LOCALVERSION=\"-tierlab-$series_hash\"" "$kdir/config" ||
	{ echo "kernel/check-configs.sh: $kdir does not carry series $series_hash" >&2; exit 1; }

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
	if ! make -C "$src" O="$obj" LOCALVERSION= olddefconfig >"$log" 2>&1; then
		echo "$v: olddefconfig failed (log: $log)"
		fail=1
		continue
	fi
	state=$(for o in TRACEPOINTS HUGETLB_PAGE NUMA; do
		grep -q "^CONFIG_$o=y" "$obj/.config" && echo "$o=y" || true
	done | tr '\n' ' ')
	targets=(mm/ drivers/base/ kernel/sysctl.o)
	if make -C "$src" O="$obj" LOCALVERSION= -j"$jobs" "${targets[@]}" >>"$log" 2>&1; then
		echo "$v: ok, ${targets[*]} compiled in $((SECONDS - start)) s (on: ${state:--})"
	else
		echo "$v: FAILED after $((SECONDS - start)) s (log: $log):"
		{ grep -E 'error:' "$log" || grep -E 'Error' "$log"; } | head -n 10 | sed 's/^/  /'
		fail=1
	fi
done
exit $fail
