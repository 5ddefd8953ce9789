#!/bin/bash
# Integration: build the kernel, boot it under the two-node topology (DRAM
# with CPUs + CPU-less PMEM) and check from inside the guest that both nodes
# exist with the memory, HMAT read latency and zone the file promises (the
# PMEM node hot-added and onlined movable, the DRAM node boot memory).
set -euo pipefail
cd "$(dirname "$0")/.."
topo=topologies/dram-pmem.yaml
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# The expectation comes from the file, through the same parser the lab uses.
specs=$("$LABTOOL" expect --all "$topo" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
	NR > 1 && $3 > 0 {printf "%s:%s:%s:%s ", $1, $3, $4, $col["zone"]}')
[ -n "$specs" ] || { echo "no nodes with memory in $topo"; exit 1; }
nodes=$(echo "$specs" | wc -w)
[ "$nodes" -ge 2 ] || { echo "$topo has $nodes memory nodes, want 2"; exit 1; }
grep -q ':-' <<<"$specs" && { echo "$topo: a node without HMAT latency"; exit 1; }
grep -q ':movable' <<<"$specs" || { echo "$topo: no movable node"; exit 1; }

out=$(./run-lab.sh -q --results "$results" --add tests/guest/check-nodes.sh \
	--exec "check-nodes.sh $specs" "$topo") || { echo "$out"; echo "guest check failed"; exit 1; }
echo "$out"
[ "$(grep -c '^TAP ok' <<<"$out")" -eq $((3 * nodes + 1)) ] || { echo "expected $((3 * nodes + 1)) passing checks"; exit 1; }
