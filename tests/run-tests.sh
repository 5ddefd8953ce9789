#!/bin/bash
# The test command behind `make test`: unit tests of the host-side C under
# ASan and UBSan, then every tests/test_*.sh (exit 0 pass, 77 skip, other
# fail).  TESTS='pattern' selects scripts by substring.  The last line is
# "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
export LABTOOL=$PWD/build/san/labtool
passed=0 failed=0 skipped=0 failures=()
started=$SECONDS

if ! make -s all initramfs build/san/unit build/san/labtool; then
	echo "tests: building the lab failed"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi

echo "== unit tests (ASan+UBSan)"
if build/san/unit > build/unit.log 2>&1; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	failures+=(unit)
	grep -v '^ok ' build/unit.log
fi
tail -n 1 build/unit.log

for t in tests/test_*.sh; do
	case $t in *"${TESTS:-}"*) ;; *) continue ;; esac
	name=$(basename "$t" .sh)
	echo "== $name"
	t0=$SECONDS
	log=build/$name.log
	"$t" > "$log" 2>&1
	rc=$?
	case $rc in
	0) passed=$((passed + 1)); echo "ok   $name ($((SECONDS - t0))s)" ;;
	77) skipped=$((skipped + 1)); echo "skip $name: $(tail -n 1 "$log")" ;;
	*) failed=$((failed + 1)); failures+=("$name"); echo "FAIL $name (exit $rc, $((SECONDS - t0))s); last lines of $log:"; tail -n 25 "$log" | sed 's/^/    /' ;;
	esac
done
echo "tests took $((SECONDS - started))s${failures[*]:+; failed: ${failures[*]}}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
