#!/bin/bash
# The kernel series' in-guest tests (tests/kernel/mpol-kselftest.c) on the
# 2-socket DRAM+PMEM machine, where the three fallback settings must place
# the overflow differently: counters equal placement, the tracepoint fires
# with the right fields, each vm.preferred_many_fallback setting keeps its
# promise, hugetlb and the bulk path (vmalloc'd kernel stacks) are counted,
# bad sysctl values get EINVAL.  Then the same program on the baselines
# (--kernel upstream: 6.12 without the series; --kernel 6.1): nothing
# fails, the series' checks skip, and with the default setting the overflow
# lands on the same nodes as on the patched kernel.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

run() {	# KERNEL -> output in $tmp/KERNEL.out, status in $tmp/KERNEL.rc
	./run-lab.sh -q --kernel "$1" --results "$tmp/$1" --exec mpol-kselftest \
		topologies/2s-dram-pmem.yaml >"$tmp/$1.out" 2>&1
	echo $? >"$tmp/$1.rc"
}
# "node0 node3": the nodes the default (local) overflow landed on
placed() { sed -n 's/^TAP # placement local://p' "$tmp/$1.out" | head -1 | grep -o 'node[0-9]*' | tr '\n' ' '; }

run patched
cat "$tmp/patched.out"
[ "$(cat "$tmp/patched.rc")" = 0 ] || { echo "FAIL mpol-kselftest exited $(cat "$tmp/patched.rc")"; fail=1; }
grep -q '^TAP not ok' "$tmp/patched.out" && { echo "FAIL a check failed"; fail=1; }
ok=$(grep -c '^TAP ok' "$tmp/patched.out")
skip=$(grep -c '^TAP ok.*# SKIP' "$tmp/patched.out")
# With the series applied nothing may skip: a skip means a counter, the
# tracepoint or the sysctl is missing from the kernel under test.
[ "$ok" -ge 15 ] || { echo "FAIL only $ok checks passed"; fail=1; }
[ "$skip" = 0 ] || { echo "FAIL $skip checks skipped on the patched kernel"; fail=1; }
want=$(placed patched)
[ -n "$want" ] || { echo "FAIL no default placement on the patched kernel"; fail=1; }

for k in upstream 6.1; do
	run "$k"
	rc=$(cat "$tmp/$k.rc")
	got=$(placed "$k")
	meta=$(ls "$tmp/$k"/*/meta.json 2>/dev/null | head -1)
	flavor=$(jq -r .kernel_flavor "$meta" 2>/dev/null)
	release=$(jq -r .kernel_release "$meta" 2>/dev/null)
	echo "# --kernel $k: $release, exit $rc, default placement: $got"
	[ "$rc" = 0 ] && ! grep -q '^TAP not ok' "$tmp/$k.out" ||
		{ echo "FAIL --kernel $k: a check failed"; grep '^TAP not ok' "$tmp/$k.out"; fail=1; }
	grep -q '^TAP ok .*# SKIP kernel has no' "$tmp/$k.out" ||
		{ echo "FAIL --kernel $k: the series' checks did not skip"; fail=1; }
	[ "$got" = "$want" ] || { echo "FAIL --kernel $k: default overflow on '$got', patched on '$want'"; fail=1; }
	[ "$flavor" = "$k" ] || { echo "FAIL --kernel $k: meta.json says flavor '$flavor'"; fail=1; }
	case $k:$release in
	upstream:6.12.*-tierlab-upstream | 6.1:6.1.*-tierlab-6.1) ;;
	*) echo "FAIL --kernel $k: release '$release'"; fail=1 ;;
	esac
done
[ "$fail" = 0 ] && echo "ok: series checks on the patched kernel, baselines upstream and 6.1 agree on default placement"
exit $fail
