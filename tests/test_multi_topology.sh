#!/bin/bash
# Several topologies in one command: one run directory each, each with its
# report, and a comparison report that names both machines.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
./run-lab.sh -q --results "$tmp" --profile quick --benches checks \
	topologies/dram-pmem.yaml topologies/dram-hbm.yaml; rc=$?
check "exit 0" '[ $rc = 0 ]'
check "a run directory per topology" '[ -d "$(ls -d "$tmp"/dram-pmem-* | head -1)" ] && [ -d "$(ls -d "$tmp"/dram-hbm-* | head -1)" ]'
check "each has its report" '[ "$(ls "$tmp"/dram-*/report.html | wc -l)" = 2 ]'
cmp=$(ls -d "$tmp"/compare-* 2>/dev/null | head -1)
check "a comparison report" '[ -s "$cmp/compare.html" ] && [ -s "$cmp/compare.csv" ]'
check "it names both machines" 'grep -q dram-pmem "$cmp/compare.html" && grep -q dram-hbm "$cmp/compare.html"'
exit $fail
