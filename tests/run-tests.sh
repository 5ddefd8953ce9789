#!/bin/bash
# The test command behind `make test` and `make test-kernels`.
#
#   tests/run-tests.sh            make test: unit tests of the host-side C
#                                 under ASan and UBSan, then every
#                                 tests/test_*.sh (one patched kernel)
#   tests/run-tests.sh --kernels  make test-kernels: every tests/matrix/test_*.sh
#                                 (each prefix of the series, the configuration
#                                 variants, the upstream and 6.1 baselines)
#
# A script exits 0 to pass, 77 to skip, anything else fails.  Each test's
# time and the running total are printed as it ends.  A test that leaves a
# QEMU running fails (the QEMU is killed): every test runs with its own
# TIERLAB_TEST_TAG in the environment, which QEMU inherits.
# TESTS='pattern' selects scripts by substring.  The last line is
# "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
export LABTOOL=$PWD/build/san/labtool
level=test dir=tests
case ${1:-} in
'') ;;
--kernels) level=kernels dir=tests/matrix ;;
*) echo "tests/run-tests.sh: unknown option '$1' (--kernels)" >&2; exit 2 ;;
esac
passed=0 failed=0 skipped=0 failures=()
started=$SECONDS

if ! make -s all initramfs build/san/unit build/san/labtool; then
	echo "tests: building the lab failed"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi

if [ "$level" = test ]; then
	# each unit test is forked and counted on its own (TAP in build/unit.log)
	echo "== unit tests (ASan+UBSan)"
	build/san/unit > build/unit.log 2>&1
	rc=$?
	last=$(tail -n 1 build/unit.log)
	echo "$last"
	if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]] && { [ "$rc" = 0 ] || [ "${BASH_REMATCH[2]}" != 0 ]; }; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
	else	# the runner itself died
		failed=$((failed + 1))
	fi
	if [ "$rc" != 0 ]; then
		failures+=(unit)
		grep -v '^ok ' build/unit.log
	fi
fi

# leftover_qemu TAG: pids of QEMUs whose environment carries the tag
leftover_qemu() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = qemu-system-x86 ] || continue
		tr '\0' '\n' < "$p/environ" 2>/dev/null | grep -qxF "TIERLAB_TEST_TAG=$1" && echo "${p#/proc/}"
	done
}

# run_one SCRIPT: runs it with its tag and log; its exit status, or 70 if
# it left a QEMU running (killed), goes to build/<name>.rc
run_one() {
	local t=$1 name rc left
	name=$(basename "$t" .sh)
	export TIERLAB_TEST_TAG=$name-$$-$SECONDS
	"$t" > "build/$name.log" 2>&1
	rc=$?
	left=$(leftover_qemu "$TIERLAB_TEST_TAG" | xargs)
	if [ -n "$left" ]; then
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null
		echo "left a QEMU running (pid $left), killed" >> "build/$name.log"
		[ "$rc" != 0 ] && [ "$rc" != 77 ] || rc=70
	fi
	echo "$rc" > "build/$name.rc"
}

# report NAME SECS: one line for a finished test, its log's tail if it failed
report() {
	local name=$1 rc took
	rc=$(cat "build/$name.rc" 2>/dev/null || echo 71)
	took="$2s, total $((SECONDS - started))s"
	case $rc in
	0) passed=$((passed + 1)); echo "ok   $name ($took)" ;;
	77) skipped=$((skipped + 1)); echo "skip $name ($took): $(tail -n 1 "build/$name.log")" ;;
	*) failed=$((failed + 1)); failures+=("$name"); echo "FAIL $name (exit $rc, $took); last lines of build/$name.log:"; tail -n 25 "build/$name.log" | sed 's/^/    /' ;;
	esac
	echo "$name $2" >> "$times.new"
}

# Tests run TEST_JOBS at a time (make test: 2, the guests of one test are
# mostly single-threaded; make test-kernels: 1, its kernel builds use every
# core), the longest of the last run first so that the two queues end
# together; each is reported as it ends.
jobs=${TEST_JOBS:-$([ "$level" = test ] && echo 2 || echo 1)}
case $jobs in '' | *[!0-9]* | 0) echo "tests/run-tests.sh: TEST_JOBS: a number from 1, not '$jobs'" >&2; exit 2 ;; esac
times=build/test-times-$level
# A clean clone has no times of its own yet: tests/test-times-LEVEL (seconds
# measured in CI, committed) orders it; a script in neither goes first.
seed=tests/test-times-$level
: > "$times.new"
mapfile -t queue < <(for t in "$dir"/test_*.sh; do
	case $t in *"${TESTS:-}"*) ;; *) continue ;; esac
	n=$(basename "$t" .sh)
	last=$(awk -v n="$n" '$1 == n { print $2 }' "$times" 2>/dev/null)
	[ -n "$last" ] || last=$(awk -v n="$n" '$1 == n { print $2 }' "$seed" 2>/dev/null)
	echo "${last:-999999} $t"
done | sort -k1,1nr -k2 | cut -d' ' -f2-)
declare -A running=() began=()
next=0
while [ "$next" -lt ${#queue[@]} ] || [ ${#running[@]} -gt 0 ]; do
	if [ "$next" -lt ${#queue[@]} ] && [ ${#running[@]} -lt "$jobs" ]; then
		t=${queue[next]}
		next=$((next + 1))
		name=$(basename "$t" .sh)
		rm -f "build/$name.rc"
		echo "== $name"
		run_one "$t" &
		running[$!]=$name began[$!]=$SECONDS
		continue
	fi
	wait -n -p done_pid
	name=${running[$done_pid]}
	report "$name" $((SECONDS - began[$done_pid]))
	unset "running[$done_pid]" "began[$done_pid]"
done
# the times of this run order the next (a partial run keeps the others')
if [ -s "$times.new" ]; then
	awk 'NR == FNR { new[$1] = 1; print; next } !($1 in new)' "$times.new" "$times" 2>/dev/null > "$times.tmp" ||
		cp "$times.new" "$times.tmp"
	mv "$times.tmp" "$times"
fi
rm -f "$times.new"
echo "tests ($level) took $((SECONDS - started))s${failures[*]:+; failed: ${failures[*]}}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
