#!/bin/bash
# Integration (#20 item 4): run-lab --tiering balancing on the 2-socket
# DRAM+PMEM topology.  The guest's tiers step sets demotion_enabled=1 and
# kernel.numa_balancing=2 and checks them; HMAT puts the CPU-less PMEM nodes
# in a lower memory tier than the DRAM nodes (the kernel's formula: tier
# 31 against DRAM's 4); bench tiering's memory.reclaim demotes every
# policy's pages off node 0 -- MPOL_BIND's too, outside its nodemask (6.12's
# demote_folio_list() ignores mempolicy); touched afterwards, only the
# default policy's pages come back (the NUMA scanner skips ranges without
# MPOL_F_MOF, which mbind() sets only with MPOL_F_NUMA_BALANCING, not
# passed there); bind and preferred-many again with MPOL_F_NUMA_BALANCING
# (rows bench tiering_mof) come back to node 0 with hint faults.
# meta.json, the plan and the report's tiering section carry it.  One
# boot, about a minute.
set -uo pipefail
cd "$(dirname "$0")/.."
topo=topologies/2s-dram-pmem.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

out=$(./run-lab.sh -q --results "$tmp" --profile quick --tiering balancing --benches tiering "$topo" 2>&1); rc=$?
echo "$out" | tail -n 5
run=$(ls -d "$tmp"/*/ 2>/dev/null | head -n 1)
[ -n "$run" ] || { echo "FAIL no run directory"; exit 1; }
sum=$run/summary.csv
row() {	# BENCH POLICY METRIC -> value
	awk -F, -v b="$1" -v p="$2" -v m="$3" '$2 == b && $3 == p && $7 == m { print $8 }' "$sum"
}
frac() {	# BENCH POLICY METRIC -> value, 0 without the row (a node with no pages has none)
	local v
	v=$(row "$@")
	echo "${v:-0}"
}

check "run exits 0 (every TAP check passed; got $rc)" '[ "$rc" = 0 ]'
check "plan: the tiers step sets the mode before the benchmark" \
	'grep -q "^step tiers [0-9]* tierbench tiers --tiering balancing" "$run"/raw/plan-1.txt &&
	 [ "$(grep -n "^step tiers " "$run"/raw/plan-1.txt | cut -d: -f1)" -lt "$(grep -n "^step tiering " "$run"/raw/plan-1.txt | cut -d: -f1)" ]'
check "meta.json: tiering balancing" 'grep -q "\"tiering\": *\"balancing\"" "$run/meta.json"'
check "tiers: the guest read back demotion_enabled 1, numa_balancing 2" \
	'[ "$(row tiers - demotion_enabled)" = 1 ] && [ "$(row tiers - numa_balancing)" = 2 ] &&
	 grep -q "^ok .*tiers --tiering balancing took effect" "$run"/boots/1.tap'
check "tiers: PMEM nodes 2, 3 below DRAM nodes 0, 1 (tiers $(row tiers - memory_tier_node0) $(row tiers - memory_tier_node1) $(row tiers - memory_tier_node2) $(row tiers - memory_tier_node3))" \
	'[ "$(row tiers - memory_tier_node2)" -gt "$(row tiers - memory_tier_node0)" ] &&
	 [ "$(row tiers - memory_tier_node3)" -gt "$(row tiers - memory_tier_node1)" ] &&
	 [ "$(row tiers - memory_tier_node0)" = "$(row tiers - memory_tier_node1)" ]'
check "tiers: every node in the tier the kernel's HMAT formula gives" \
	'[ "$(grep -c "^ok .*tiers node .* in memory_tier" "$run"/boots/1.tap)" = 4 ]'
for p in bind preferred preferred-many default; do
	check "tiering $p: populated on node 0, all demoted by memory.reclaim (pgdemote_direct +$(row tiering $p pgdemote_direct_delta))" \
		'[ "$(row tiering $p populated_frac_node0)" = 1 ] && [ "$(row tiering $p reclaimed_outside_policy_frac)" = 1 ] &&
		 [ "$(row tiering $p pgdemote_direct_delta)" -ge 4096 ]'
done
check "tiering bind: demoted to node 2, outside its nodemask {0}" \
	'[ "$(row tiering bind policy_node)" = 0 ] && [ "$(row tiering bind reclaimed_frac_node2)" = 1 ]'
check "tiering default: promoted back to node 0 ($(row tiering default touched3s_frac_node0), pgpromote_success +$(row tiering default pgpromote_success_delta))" \
	'awk "BEGIN { exit !($(row tiering default touched3s_frac_node0) >= 0.9) }" &&
	 [ "$(row tiering default pgpromote_success_delta)" -gt 0 ]'
check "tiering bind: not promoted (no MPOL_F_MOF)" \
	'[ "$(row tiering bind pgpromote_success_delta)" = 0 ] && [ "$(row tiering bind touched3s_outside_policy_frac)" = 1 ]'
# bind and preferred-many again with mbind()'s MPOL_F_NUMA_BALANCING (rows
# bench tiering_mof): MPOL_F_MOF | MPOL_F_MORON, the scanner takes them,
# mpol_misplaced() sends hint-faulted pages to the CPU's node 0 (in the mask)
for p in bind preferred-many; do
	check "tiering_mof $p: demoted, then promoted back to node 0 (touched1s $(frac tiering_mof $p touched1s_frac_node0), touched3s $(frac tiering_mof $p touched3s_frac_node0); pgpromote_success +$(row tiering_mof $p pgpromote_success_delta), numa_hint_faults +$(row tiering_mof $p numa_hint_faults_delta), numa_pages_migrated +$(row tiering_mof $p numa_pages_migrated_delta))" \
		'[ "$(row tiering_mof $p reclaimed_outside_policy_frac)" = 1 ] &&
		 awk "BEGIN { exit !($(frac tiering_mof $p touched3s_frac_node0) >= 0.9) }" &&
		 [ "$(row tiering_mof $p pgpromote_success_delta)" -ge 3686 ] &&
		 [ "$(row tiering_mof $p numa_hint_faults_delta)" -ge 3686 ] &&
		 [ "$(row tiering_mof $p numa_pages_migrated_delta)" -ge 3686 ] &&
		 [ "$(row tiering $p pgpromote_success_delta)" = 0 ]'
done
check "TAP: tiering_mof's six checks passed" '[ "$(grep -c "^ok .* tiering_mof " "$run"/boots/1.tap)" = 6 ]'
check "TAP: tiering's twelve checks passed" '[ "$(grep -c "^ok .* tiering " "$run"/boots/1.tap)" = 12 ]'
check "report: the tiering section says BIND's pages left its nodemask" \
	'grep -q "^## Memory tiering" "$run/report.md" && grep -q "MPOL\\\\_BIND to node 0 did not keep its pages there" "$run/report.md" &&
	 grep -q "default had [0-9][0-9.]* % back on node 0" "$run/report.md"'
check "report: the tiering section says bind with MPOL_F_NUMA_BALANCING came back" \
	'grep -q "bind with MPOL\\\\_F\\\\_NUMA\\\\_BALANCING had [0-9][0-9.]* % back on node 0" "$run/report.md" &&
	 grep -q "preferred-many with MPOL\\\\_F\\\\_NUMA\\\\_BALANCING had [0-9][0-9.]* % back on node 0" "$run/report.md"'
exit $fail
