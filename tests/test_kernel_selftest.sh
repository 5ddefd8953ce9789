#!/bin/bash
# The kernel series' in-guest tests (tests/kernel/mpol-kselftest.c) on the
# 2-socket DRAM+PMEM machine, where the three fallback settings must place
# the overflow differently: counters equal placement, the tracepoint fires
# with the right fields, each vm.preferred_many_fallback setting keeps its
# promise, hugetlb is counted, bad sysctl values get EINVAL.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(./run-lab.sh -q --results "$tmp" --exec mpol-kselftest topologies/2s-dram-pmem.yaml 2>&1); rc=$?
echo "$out"
fail=0
[ "$rc" = 0 ] || { echo "FAIL mpol-kselftest exited $rc"; fail=1; }
grep -q '^TAP not ok' <<<"$out" && { echo "FAIL a check failed"; fail=1; }
ok=$(grep -c '^TAP ok' <<<"$out")
skip=$(grep -c '^TAP ok.*# SKIP' <<<"$out")
# With the series applied nothing may skip: a skip means a counter, the
# tracepoint or the sysctl is missing from the kernel under test.
[ "$ok" -ge 13 ] || { echo "FAIL only $ok checks passed"; fail=1; }
[ "$skip" = 0 ] || { echo "FAIL $skip checks skipped on the patched kernel"; fail=1; }
exit $fail
