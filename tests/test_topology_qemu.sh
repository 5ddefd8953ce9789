#!/bin/sh
# Every shipped topology's QEMU arguments are accepted by the installed QEMU:
# start it paused (-S, so no kernel is needed), let it build the machine and
# its ACPI tables, and require that it is still running after 2 seconds.
# Exit 0 pass, 1 fail, 77 skip.
LABTOOL=${LABTOOL:-build/host/labtool}
QEMU=${QEMU:-qemu-system-x86_64}
command -v "$QEMU" >/dev/null 2>&1 || { echo "SKIP: $QEMU not installed"; exit 77; }
[ -x "$LABTOOL" ] || { echo "FAIL: $LABTOOL not built (make host)"; exit 1; }
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for topo in topologies/*.yaml; do
	if ! "$LABTOOL" qemu-args "$topo" >"$tmp/args"; then
		echo "FAIL: $topo: labtool qemu-args failed"
		fail=1
		continue
	fi
	# one argv word per line; no word contains a newline
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done <"$tmp/args"
	timeout 2 "$QEMU" "$@" -display none -S -nic none -serial none \
		-monitor none >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne 124 ]; then
		echo "FAIL: $topo: QEMU exited with $rc:"
		grep -v 'module ui' "$tmp/out" | sed 's/^/    /'
		fail=1
	else
		echo "ok: $topo"
	fi
done
exit $fail
