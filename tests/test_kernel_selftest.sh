#!/bin/bash
# The kernel series' in-guest tests (tests/kernel/mpol-kselftest.c) on the
# 2-socket DRAM+PMEM machine, where the three fallback settings must place
# the overflow differently: counters equal placement, the tracepoint fires
# with the right fields, each fallback order (MPOL_F_FALLBACK_* mode flags)
# keeps its promise, also for three tasks holding the three orders at once,
# hugetlb and the bulk path (vmalloc'd kernel stacks) are counted, the flags
# get EINVAL but with MPOL_PREFERRED_MANY.  The same program on the baselines (upstream,
# 6.1) is tests/matrix/test_kernel_baselines.sh (make test-kernels).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/kselftest-run.sh
. tests/kselftest-run.sh
fail=0

kselftest_run patched
cat "$tmp/patched.out"
[ "$(cat "$tmp/patched.rc")" = 0 ] || { echo "FAIL mpol-kselftest exited $(cat "$tmp/patched.rc")"; fail=1; }
grep -q '^TAP not ok' "$tmp/patched.out" && { echo "FAIL a check failed"; fail=1; }
ok=$(grep -c '^TAP ok' "$tmp/patched.out")
skip=$(grep -c '^TAP ok.*# SKIP' "$tmp/patched.out")
# With the series applied nothing may skip: a skip means a counter, the
# tracepoint or the fallback-order flags are missing from the kernel under test.
[ "$ok" -ge 15 ] || { echo "FAIL only $ok checks passed"; fail=1; }
[ "$skip" = 0 ] || { echo "FAIL $skip checks skipped on the patched kernel"; fail=1; }
[ -n "$(kselftest_placed patched)" ] || { echo "FAIL no default placement on the patched kernel"; fail=1; }
[ "$fail" = 0 ] && echo "ok: the series' in-guest checks pass on the patched kernel, none skipped"
exit $fail
