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

for t in "$dir"/test_*.sh; do
	case $t in *"${TESTS:-}"*) ;; *) continue ;; esac
	name=$(basename "$t" .sh)
	echo "== $name"
	t0=$SECONDS
	log=build/$name.log
	export TIERLAB_TEST_TAG=$name-$$-$t0
	"$t" > "$log" 2>&1
	rc=$?
	left=$(leftover_qemu "$TIERLAB_TEST_TAG" | xargs)
	if [ -n "$left" ]; then
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null
		echo "left a QEMU running (pid $left), killed" >> "$log"
		[ "$rc" != 0 ] && [ "$rc" != 77 ] || rc=70
	fi
	took="$((SECONDS - t0))s, total $((SECONDS - started))s"
	case $rc in
	0) passed=$((passed + 1)); echo "ok   $name ($took)" ;;
	77) skipped=$((skipped + 1)); echo "skip $name ($took): $(tail -n 1 "$log")" ;;
	*) failed=$((failed + 1)); failures+=("$name"); echo "FAIL $name (exit $rc, $took); last lines of $log:"; tail -n 25 "$log" | sed 's/^/    /' ;;
	esac
done
unset TIERLAB_TEST_TAG
echo "tests ($level) took $((SECONDS - started))s${failures[*]:+; failed: ${failures[*]}}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
