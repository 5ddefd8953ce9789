#!/bin/bash
# The series compiles in configurations the lab kernel does not use:
# tracing off, hugetlbfs off, NUMA off (kernel/check-configs.sh builds the
# directories it touches from the patched tree).  A stub of a patch that
# does not compile in such a configuration fails here (nothing is linked).
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(kernel/check-configs.sh 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] || { echo "FAIL kernel/check-configs.sh exited $rc"; exit 1; }
[ "$(grep -c ': ok, ' <<<"$out")" = 3 ] || { echo "FAIL not every variant compiled"; exit 1; }
# each variant really turned its option off
grep -q '^notrace: ok.*(on: .*TRACEPOINTS' <<<"$out" && { echo "FAIL notrace kept TRACEPOINTS"; exit 1; }
grep -q '^nohugetlb: ok.*(on: .*HUGETLB_PAGE' <<<"$out" && { echo "FAIL nohugetlb kept HUGETLB_PAGE"; exit 1; }
grep -q '^nonuma: ok.*(on: .*NUMA' <<<"$out" && { echo "FAIL nonuma kept NUMA"; exit 1; }
exit 0
