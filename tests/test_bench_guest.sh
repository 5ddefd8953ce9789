#!/bin/bash
# Integration, on the 2-socket DRAM+PMEM topology where the preferred PMEM
# nodes are smaller than the allocation: BIND is OOM-killed (with the memory
# policy constraint), PREFERRED and PREFERRED_MANY survive with pages
# outside the preferred set (tierbench's own TAP checks, which fail the run),
# and PREFERRED_MANY spreads over every preferred node before falling back
# (asserted here from the fill curve).
set -uo pipefail
cd "$(dirname "$0")/.."
topo=topologies/2s-dram-pmem.yaml
LABTOOL=${LABTOOL:-build/host/labtool}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

pmem=$("$LABTOOL" nodes "$topo" pmem | tr , ' ')
[ "$(wc -w <<<"$pmem")" -ge 2 ] || { echo "$topo: want 2 PMEM nodes, got '$pmem'"; exit 1; }
out=$(./run-lab.sh -q --results "$tmp" --profile quick --benches oom,fallback "$topo" 2>&1); rc=$?
echo "$out" | tail -n 5
run=$(ls -d "$tmp"/*/)
sum=$run/summary.csv
check "run exits 0 (every TAP check passed)" '[ $rc = 0 ]'
check "TAP: bind OOM-killed with CONSTRAINT_MEMORY_POLICY" 'grep -q "^ok .*oom bind/4k.*CONSTRAINT_MEMORY_POLICY" "$run"/boots/*.tap'
check "TAP: preferred and preferred-many complete outside the set" \
	'[ "$(grep -cE "^ok .*oom (preferred|preferred-many)/4k.*completes with pages outside" "$run"/boots/*.tap)" = 2 ]'
check "rows: bind outcome oom_killed" 'grep -q ",oom,bind,[^,]*,4k,[^,]*,outcome_oom_killed,1," "$sum"'
check "rows: preferred-many outcome completed" 'grep -q ",oom,preferred-many,[^,]*,4k,[^,]*,outcome_completed,1," "$sum"'

# The fill curve of preferred-many: before the first step that lands
# mostly outside the PMEM nodes, every PMEM node has received pages.
awk -F, -v nodes="$pmem" '
	$2 == "fallback" && $3 == "preferred-many" && $6 ~ /^fill@/ {
		x = substr($6, 6) + 0
		if ($7 == "step_preferred_frac") frac[x] = $8
		if ($7 ~ /^step_frac_node/) { n = substr($7, 15); on[x, n] = $8 }
		xs[x] = 1
	}
	END {
		m = 0; for (x in xs) sorted[++m] = x + 0
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
		k = split(nodes, want, " ")
		for (i = 1; i <= m; i++) {
			x = sorted[i]
			for (w = 1; w <= k; w++) if (on[x, want[w]] > 0) used[want[w]] = 1
			if (frac[x] < 0.5) {
				for (w = 1; w <= k; w++) if (!used[want[w]]) { print "node " want[w] " unused before fallback at " x " MiB"; exit 1 }
				print "fell back at " x " MiB, after using every PMEM node"; exit 0
			}
		}
		print "no fallback step in " m " steps"; exit 1
	}' "$sum"
spread=$?
check "preferred-many spreads over all PMEM nodes before falling back" '[ $spread = 0 ]'
exit $fail
