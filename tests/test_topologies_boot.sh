#!/bin/bash
# Integration: boot every shipped topology (no benchmarks) and let run-lab's
# own guest check compare what the guest saw -- nodes, CPUs, memory,
# distances, HMAT figures, memory-side caches, tiers -- with the file.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in topologies/*.yaml; do
	out=$(./run-lab.sh --results "$tmp" --benches none "$t" 2>&1); rc=$?
	if [ "$rc" = 0 ] && grep -q "the guest's view matches $(basename "$t")" <<<"$out"; then
		echo "ok   $t"
	else
		echo "FAIL $t (exit $rc):"
		sed 's/^/    /' <<<"$out" | tail -n 15
		fail=1
	fi
done
exit $fail
