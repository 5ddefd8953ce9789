#!/bin/bash
# Integration: build the kernel, boot it under the two-node topology (DRAM
# with CPUs + CPU-less PMEM) and check from inside the guest that both nodes
# exist with the memory and HMAT read latency the file promises.
set -euo pipefail
cd "$(dirname "$0")/.."
topo=topologies/dram-pmem.yaml
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# The expectation comes from the file, through the same parser the lab uses.
specs=$("$LABTOOL" expect "$topo" | awk -F, 'NR > 1 && $3 > 0 {printf "%s:%s:%s ", $1, $3, $4}')
[ -n "$specs" ] || { echo "no nodes with memory in $topo"; exit 1; }
nodes=$(echo "$specs" | wc -w)
[ "$nodes" -ge 2 ] || { echo "$topo has $nodes memory nodes, want 2"; exit 1; }
grep -q ':-' <<<"$specs" && { echo "$topo: a node without HMAT latency"; exit 1; }

out=$(./run-lab.sh -q --results "$results" --add tests/guest/check-nodes.sh \
	--exec "check-nodes.sh $specs" "$topo") || { echo "$out"; echo "guest check failed"; exit 1; }
echo "$out"
[ "$(grep -c '^TAP ok' <<<"$out")" -eq $((2 * nodes)) ] || { echo "expected $((2 * nodes)) passing checks"; exit 1; }
