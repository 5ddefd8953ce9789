#!/bin/bash
# The guest runs an external test suite: a few seconds of the kernel's own
# tools/testing/selftests/mm (make selftests-mm), added with --add and run
# by suiterun under --exec on 2s-dram-pmem, with the guest's provisions that
# suites expect checked first (selftests/quick.list: /proc/config.gz,
# cgroup v2 with memory and cpuset, a writable /tmp, debugfs, a file system
# on a loop device, the nobody user).  Fails if a provision is missing, if
# a test fails or skips (each of them runs in full on this guest), if the
# command's stderr does not come back, or if run-lab's status does not say
# what happened (0, or 4 for a failed command).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
make -s selftests-mm || { echo "FAIL make selftests-mm"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
./run-lab.sh -q --clock wall --results "$tmp" --add build/selftests/mm/bin:/opt/mm \
	--exec 'echo tierlab-stderr-check >&2; suiterun /opt/mm/quick.list' \
	topologies/2s-dram-pmem.yaml >"$tmp/out" 2>&1
rc=$?
grep -v '^# ' "$tmp/out"
fail=0
grep -qx 'tierlab-stderr-check' "$tmp/out" || { echo "FAIL the command's stderr did not come back"; fail=1; }
# in the order written: the stderr line (echoed first) before suiterun's first line
awk '/^tierlab-stderr-check$/ && !s { s = NR } /^(# |setup: |suiterun: )/ && !f { f = NR } END { exit !(s && f && s < f) }' "$tmp/out" ||
	{ echo "FAIL the command's stderr came back out of order"; fail=1; }
want=$(grep -Ev '^[[:space:]]*(#|!|$)' selftests/quick.list | awk '{ print $1 }')
for t in $want; do
	line=$(grep -E "^$t: " "$tmp/out")
	case $line in
	"$t: pass "*) ;;
	'') echo "FAIL $t: no result line"; fail=1 ;;
	*) echo "FAIL $line"; grep -E "^# $t\| " "$tmp/out" | tail -n 15; fail=1 ;;
	esac
done
if grep -q '^setup: fail' "$tmp/out"; then
	echo "FAIL a provision the guest should have is missing:"
	grep '^setup: fail' "$tmp/out"
	grep -E '^# setup\| ' "$tmp/out" | tail -n 10
	fail=1
fi
# a skip alone is a failure here, not for suiterun
grep -qE '^suiterun: [0-9]+ pass, 0 skip, 0 fail \(of [0-9]+\)$' "$tmp/out" || { echo "FAIL no clean suiterun summary"; fail=1; }
# run-lab's own status: 4 when suiterun failed (a test failed, a setup step
# failed), else 0
if grep -qE '^suiterun: [0-9]+ pass, [0-9]+ skip, 0 fail \(of [0-9]+\)$' "$tmp/out"; then want_rc=0; else want_rc=4; fi
[ "$rc" = "$want_rc" ] || { echo "FAIL run-lab exited $rc, expected $want_rc"; fail=1; }
[ "$fail" = 0 ] && echo "ok: the guest provides what the mm selftests expect; $(grep -c ': pass ' "$tmp/out") tests pass, stderr comes back"
exit $fail
