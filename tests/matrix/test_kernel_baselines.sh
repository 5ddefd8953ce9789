#!/bin/bash
# The kernel series' in-guest tests (mpol-kselftest) on the baselines:
# --kernel upstream (6.12 without the series) and --kernel 6.1.  Nothing
# fails, the series' checks skip, and with the default setting the overflow
# lands on the same nodes as on the patched kernel (booted here too, for the
# placement to compare with).
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tests/kselftest-run.sh
. tests/kselftest-run.sh
fail=0

kselftest_run patched
want=$(kselftest_placed patched)
[ -n "$want" ] || { echo "FAIL no default placement on the patched kernel"; cat "$tmp/patched.out"; exit 1; }
for k in upstream 6.1; do
	kselftest_run "$k"
	rc=$(cat "$tmp/$k.rc")
	got=$(kselftest_placed "$k")
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
[ "$fail" = 0 ] && echo "ok: baselines upstream and 6.1 skip the series' checks and agree with the patched kernel on default placement"
exit $fail
