#!/bin/bash
# Workloads (issue 7): mpolrun's bad input on the host; a wrong workload
# name rejected by the plan before anything boots; then in the guest (two
# boots of topologies/dram-pmem.yaml): the policy mpolrun sets is the one
# get_mempolicy() reports inside the exec'd program, and every workload of
# workloads/ yields its rows in quick mode under every policy, with the
# overflow job OOM-killed under BIND, and under DEFAULT at most by an
# allocation of the kernel's own (the PMEM node is movable: below).
#
# WORKLOADS_NO_BOOT=1 runs only the host part.  Exit 0 pass, 1 fail, 77 skip.
set -uo pipefail
cd "$(dirname "$0")/.."
fail=0
bad() { echo "FAIL: $*"; fail=1; }
LABTOOL=${LABTOOL:-build/host/labtool}
MPOLRUN=build/guest/mpolrun
SHOWPOLICY=build/test/showpolicy

make -s build/guest/mpolrun build/guest/wlrun "$LABTOOL" || exit 1
mkdir -p build/test
gcc -static -std=gnu11 -O2 -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla \
	-o "$SHOWPOLICY" tests/guest/showpolicy.c || exit 1

# --- host: mpolrun's usage errors are one line, exit 2; exec failure 127 -----
one_line_rc() {	# want-rc args...
	local want=$1 out rc
	shift
	out=$(env -u TIERLAB_NODES_pmem "$MPOLRUN" "$@" 2>&1 >/dev/null); rc=$?
	[ "$rc" = "$want" ] || bad "mpolrun $* exited $rc, want $want ($out)"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || bad "mpolrun $*: error is not one line: $out"
}
for args in "" "--policy" "--policy nosuch -- true" "--policy bind -- true" \
	    "--policy bind --nodes 1+ -- true" "--policy bind --nodes x,y -- true" \
	    "--policy bind --nodes 1000 -- true" "--policy bind --nodes pmem -- true" \
	    "--policy default --nodes 0 -- true" "--policy bind --nodes 0 --static --relative -- true" \
	    "--policy bind --nodes 0 --home-node 0 -- true" "--policy bind --nodes 0" "--bogus -- true" \
	    "--policy bind --nodes 0 --fallback tier -- true" \
	    "--policy preferred-many --nodes 0 --fallback bogus -- true" \
	    "--policy default --fallback nearest -- true"; do
	# shellcheck disable=SC2086
	one_line_rc 2 $args
done
one_line_rc 127 --policy default -- /nonexistent/program
if [ -d /sys/devices/system/node/node0 ]; then
	got=$("$MPOLRUN" --policy preferred-many --nodes 0 -- "$SHOWPOLICY")
	[ "$got" = "mode=5 flags=0 nodes=0" ] || bad "host: preferred-many 0 -> '$got'"
	got=$(TIERLAB_NODES_dram=0 "$MPOLRUN" --policy bind --nodes dram --static -- "$SHOWPOLICY")
	[ "$got" = "mode=2 flags=32768 nodes=0" ] || bad "host: bind dram(=0) static -> '$got'"
	got=$("$MPOLRUN" --policy default -- "$SHOWPOLICY")
	[ "$got" = "mode=0 flags=0 nodes=-" ] || bad "host: default -> '$got'"
fi

# --- plan: a wrong workload name is refused before any boot ------------------
t0=$(date +%s%N)
out=$("$LABTOOL" plan topologies/dram-pmem.yaml --boot-id 1 --benches none --workloads stress-vm,nosuch 2>&1 >/dev/null); rc=$?
[ "$rc" = 64 ] || bad "plan --workloads nosuch exited $rc, want 64"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ $out == *"'nosuch' is not a workload"* ]] ||
	bad "plan --workloads nosuch: '$out'"
[ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 5000 ] || bad "plan --workloads nosuch took over 5 s"
plan=$("$LABTOOL" plan topologies/dram-pmem.yaml --boot-id 1 --profile quick --benches none --workloads all) ||
	bad "plan --workloads all failed"
nwl=$(ls workloads/*.fio workloads/*.job | wc -l)
[ "$(grep -c ' wlrun ' <<<"$plan")" = $((nwl * 4)) ] || bad "plan: want $nwl workloads x 4 policies steps"
grep -q '^step wl-stress-overflow-bind-pmem [0-9]* wlrun stress-overflow --policy bind --nodes pmem:1 --profile quick' <<<"$plan" ||
	bad "plan lacks the stress-overflow bind step"
[ -z "$("$LABTOOL" plan topologies/dram-pmem.yaml --boot-id 1 --benches none --workloads none | grep wlrun)" ] ||
	bad "--workloads none still runs wlrun"

[ "${WORKLOADS_NO_BOOT:-0}" = 1 ] && { [ "$fail" = 0 ] && echo "host checks passed (no boot)"; exit "$fail"; }
[ -f /usr/src/linux-source-6.12.tar.xz ] || [ -d "${TIERLAB_CACHE:-/var/cache/tierlab}/kernels" ] ||
	{ echo "SKIP: no kernel source to build the guest kernel"; [ "$fail" = 0 ] && exit 77; exit 1; }

# --- guest: the policy as the exec'd program sees it ------------------------
want="bind:2:0:1 preferred:1:0:1 preferred-many:5:0:1 interleave:3:0:0+1 bind-static:2:32768:1"
# the lab series' fallback orders: MPOL_F_FALLBACK_NEAREST 4096, _TIER 2048
want+=" pm-local:5:0:1 pm-nearest:5:4096:1 pm-tier:5:2048:1"
cmd='for c in bind:1 preferred:1 preferred-many:1 interleave:0+1; do echo "${c%%:*}:$(mpolrun --policy ${c%%:*} --nodes ${c#*:} -- showpolicy)"; done;'
cmd+=' echo "bind-static:$(TIERLAB_NODES_pmem=1 mpolrun --policy bind --nodes pmem --static -- showpolicy)";'
cmd+=' for o in local nearest tier; do echo "pm-$o:$(mpolrun --policy preferred-many --nodes 1 --fallback $o -- showpolicy)"; done'
out=$(./run-lab.sh -q --exec "$cmd" --add "$SHOWPOLICY" topologies/dram-pmem.yaml 2>&1); rc=$?
[ "$rc" = 0 ] || bad "guest showpolicy boot exited $rc: $(tail -n 5 <<<"$out")"
for w in $want; do
	IFS=: read -r name mode flags nodes <<<"$w"
	grep -qx "$name:mode=$mode flags=$flags nodes=$nodes" <<<"$out" ||
		bad "guest: $name: want mode=$mode flags=$flags nodes=$nodes; got: $(grep "^$name:" <<<"$out")"
done

# --- guest: every workload in quick mode yields its rows --------------------
res=$(mktemp -d "${TMPDIR:-/tmp}/tierlab-wl.XXXXXX")
trap 'rm -rf "$res"' EXIT
# Two boots.  The workloads run for a time (stress-ng --timeout, fio
# runtime), which under icount is guest time at ~0.1 guest s per host s --
# ~10x the host time for the same rows -- so the throughput workloads boot
# on the wall clock.  stress-overflow must reach the OOM within its time: on
# the wall clock a loaded host leaves its worker too few instructions to
# populate past the node (it "completed" with other guests beside it), so it
# boots under icount, where 3 guest seconds are 3e9 instructions on any host.
wl_wall=$(for f in workloads/*.fio workloads/*.job; do w=$(basename "${f%.*}"); [ "$w" = stress-overflow ] || echo "$w"; done | paste -sd,)
./run-lab.sh -q --clock wall --profile quick --benches none --workloads "$wl_wall" --results "$res/wall" topologies/dram-pmem.yaml
rc=$?
[ "$rc" -le 1 ] || bad "the wall-clock workloads boot exited $rc"
./run-lab.sh -q --clock icount --profile quick --benches none --workloads stress-overflow --results "$res/icount" topologies/dram-pmem.yaml
rc=$?
[ "$rc" -le 1 ] || bad "the icount stress-overflow boot exited $rc"
csv=$res/summary.csv
cat "$res"/wall/*/summary.csv "$res"/icount/*/summary.csv > "$csv" 2>/dev/null
[ -s "$csv" ] || { bad "no summary.csv"; exit 1; }
val() {	# bench policy metric -> value
	awk -F, -v b="$1" -v p="$2" -v m="$3" '$2 == b && $3 == p && $7 == m { print $8; exit }' "$csv"
}
for f in workloads/*.fio workloads/*.job; do
	w=$(basename "${f%.*}")
	for p in bind preferred preferred-many default; do
		oc=$(awk -F, -v b="$w" -v p="$p" '$2 == b && $3 == p && $7 ~ /^outcome_/ { print $7 }' "$csv")
		[ -n "$oc" ] || { bad "$w/$p: no outcome row"; continue; }
		[ -n "$(val "$w" "$p" pages_node1)" ] || bad "$w/$p: no pages_node1 row"
		case $w/$p in
		stress-overflow/bind) [ "$oc" = outcome_oom_killed ] || bad "$w/$p: $oc, want outcome_oom_killed"
			[ "$(val "$w" "$p" oom_constraint_memory_policy)" = 1 ] || bad "$w/$p: OOM not CONSTRAINT_MEMORY_POLICY" ;;
		# dram-pmem's PMEM node is movable (topologies/README.md, Zones):
		# default fills DRAM first, and the kernel's own allocations (page
		# tables), which cannot use ZONE_MOVABLE, may then meet DRAM at its
		# min watermark with room left on PMEM.  Completed, or killed for
		# such an allocation (the boot has a GFP_KERNEL* OOM; bind's is a
		# user page's).
		stress-overflow/default)
			if [ "$oc" = outcome_oom_killed ]; then
				grep -q 'invoked oom-killer: gfp_mask=[0-9a-fx]*(GFP_KERNEL' "$res"/icount/*/raw/console-1.log ||
					bad "$w/$p: OOM-killed, and no OOM of the boot was for a kernel allocation"
			else
				[ "$oc" = outcome_completed ] || bad "$w/$p: $oc, want outcome_completed or an OOM kill for a kernel allocation"
			fi ;;
		*) [ "$oc" = outcome_completed ] || bad "$w/$p: $oc, want outcome_completed" ;;
		esac
		[ "$oc" = outcome_completed ] || continue
		case $f in
		*.fio) [ -n "$(awk -F, -v b="$w" -v p="$p" '$2 == b && $3 == p && $7 ~ /_bw$/' "$csv")" ] ||
			bad "$w/$p: no fio bandwidth row" ;;
		*.job) [ -n "$(awk -F, -v b="$w" -v p="$p" '$2 == b && $3 == p && $7 ~ /_bogo_ops_per_s$/' "$csv")" ] ||
			bad "$w/$p: no bogo ops/s row"
			[ "$(val "$w" "$p" verify_failures)" = 0 ] || bad "$w/$p: verify_failures $(val "$w" "$p" verify_failures)" ;;
		esac
	done
done
# where BIND put the pages: all of them on the target set, bar system noise
frac=$(val stress-vm bind alloc_on_set_frac)
awk -v f="$frac" 'BEGIN { exit !(f > 0.9) }' || bad "stress-vm/bind: alloc_on_set_frac $frac, want > 0.9"
frac=$(val stress-overflow preferred alloc_on_set_frac)
awk -v f="$frac" 'BEGIN { exit !(f < 1) }' || bad "stress-overflow/preferred: alloc_on_set_frac $frac, want < 1"
frac=$(val stress-overflow preferred-many alloc_on_set_frac)
awk -v f="$frac" 'BEGIN { exit !(f < 1) }' || bad "stress-overflow/preferred-many: alloc_on_set_frac $frac, want < 1"
[ "$fail" = 0 ] && echo "all workload checks passed ($csv)"
exit "$fail"
