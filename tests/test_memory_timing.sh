#!/bin/bash
# Integration: --memory-timing count on dram-pmem (README, "Memory timing").
# One quick boot of tierbench chase with the plugin; then, from the run's
# files: every node's chase put >= 99 % of its LLC misses on the node it was
# bound to, its modeled cost per load is that node's HMAT read latency, and
# PMEM/DRAM is within 1 % of the topology's ratio (305/81); the plugin's
# address rule agreed with /proc/self/pagemap on every probe; meta.json and
# --print-qemu say count.  The expected figures come from the topology file,
# through labtool.
set -euo pipefail
cd "$(dirname "$0")/.."
topo=topologies/dram-pmem.yaml
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# --print-qemu: the plugin and its node ranges, from the topology
cmd=$(./run-lab.sh -q --print-qemu --memory-timing count "$topo")
grep -q -- '-plugin file=.*/tiermem\.so\\,out=memtiming\.txt\\,rule=doubled\\,node=0:0x0:0x40000000\\,node=1:0x40000000:0x40000000' <<<"$cmd" ||
	bad "--print-qemu has no -plugin with the node ranges: $cmd"
./run-lab.sh -q --print-qemu "$topo" | grep -q -- " -plugin " && bad "--print-qemu without --memory-timing has a -plugin"

# HMAT read latencies from CPU 0's node, per node, as the topology gives them
declare -A lat
while IFS=, read -r node _ mem rl _; do
	[ "$node" != node ] && [ "$mem" != 0 ] && lat[$node]=$rl
done < <("$LABTOOL" expect "$topo")
[ "${#lat[@]}" -ge 2 ] || { echo "$topo: want 2 memory nodes with HMAT, have ${#lat[@]}"; exit 1; }

rc=0
./run-lab.sh -q --results "$results" --profile quick --benches chase --memory-timing count "$topo" || rc=$?
run=$(ls -d "$results"/*/ | head -n 1)
run=${run%/}
[ "$rc" = 0 ] || { bad "run-lab exited $rc"; cat "$run"/boots/*.tap 2>/dev/null; }
[ -s "$run/raw/memtiming-1.txt" ] || bad "no plugin report raw/memtiming-1.txt"
[ "$(jq -r .memory_timing "$run/meta.json")" = count ] || bad "meta.json: memory_timing is not count"
grep -q '^not ok' "$run/boots/1.tap" && { bad "a check failed:"; grep '^not ok' "$run/boots/1.tap"; }
probes=$(grep -c '^ok [0-9]* - memtiming: probe' "$run/boots/1.tap" || true)
[ "$probes" -ge 8 ] || bad "$probes address probes checked, want 8 (4 per node)"

# value METRIC NODE-OF-CHASE: the chase row's value
value() { awk -F, -v m="$1" -v n="node:$2" '$2 == "chase" && $4 == n && $7 == m { print $8 }' "$run/summary.csv"; }
for n in "${!lat[@]}"; do
	share=$(value "llc_miss_share_node$n" "$n")
	per_load=$(value access_ns_per_load "$n")
	echo "chase bound to node $n: miss share $share, $per_load ns per load (HMAT ${lat[$n]} ns)"
	awk -v s="$share" 'BEGIN { exit !(s != "" && s >= 0.99) }' ||
		bad "node $n: miss share on the bound node '$share', want >= 0.99"
	# every load misses once: the per-load cost is the node's latency, within 1 %
	awk -v v="$per_load" -v l="${lat[$n]}" 'BEGIN { exit !(v != "" && v / l > 0.99 && v / l < 1.01) }' ||
		bad "node $n: $per_load ns per load, want ${lat[$n]} within 1 %"
done
ratio=$(value access_ratio_vs_node0 1)
echo "PMEM/DRAM cost per load $ratio, HMAT ${lat[1]}/${lat[0]}"
awk -v r="$ratio" -v a="${lat[1]}" -v b="${lat[0]}" 'BEGIN { w = a / b; exit !(r != "" && r / w > 0.99 && r / w < 1.01) }' ||
	bad "PMEM/DRAM ratio '$ratio', want ${lat[1]}/${lat[0]} within 1 %"

# a report damaged after the fact is an error naming its line, not rows
cp "$run/raw/memtiming-1.txt" "$results/saved"
sed -i '5s/closed=1/closed=maybe/' "$run/raw/memtiming-1.txt"
out=$("$LABTOOL" collect "$run" 1 --topology dram-pmem --memory-timing count --topology-file "$topo" 2>&1) &&
	bad "collect of a damaged report exited 0"
grep -q 'memtiming-1.txt:5: phase: malformed' <<<"$out" || bad "damaged report: '$out'"
exit "$fail"
