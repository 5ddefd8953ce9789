#!/bin/bash
# The memory-timing plugin loaded as each kind of QEMU loads it, without a
# QEMU of each kind: tests/plugin/fakeqemu.c stands in for the binary
# (plugin/qemu_api.h says what differs).  Before 9.0 (qemu_plugin_n_vcpus
# exported, insn_data returns a pointer) the plugin declares API version 1;
# 9.0 (no n_vcpus, insn_data a pointer, info.version.cur 2) version 2; from
# 9.1 (no n_vcpus, insn_data copies, cur 3) version 2, and it reads the
# instruction bytes by copy.  Each way it finds both markers
# and the load in a translated block and counts the load's 10 lines of
# node 1 into phase 2, written at exit.  CI's boots load it into QEMU 7.2
# only: this is where the newer path runs.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
make -s plugin-test || { echo "FAIL make plugin-test"; exit 1; }
for kind in old:1:1 90:2:2 new:3:2; do
	IFS=: read -r name cur want <<<"$kind"
	out=$(build/plugin/test/loadcheck "build/plugin/test/fakeqemu-$name.so" build/plugin/tiermem.so \
		"$cur" "$tmp/report-$name.txt" 2>&1)
	rc=$?
	check "QEMU $name: loaded, installed, ran, exit 0" '[ $rc = 0 ] || { echo "$out"; false; }'
	check "QEMU $name: declares API version $want" 'grep -qx "version=$want" <<<"$out"'
	check "QEMU $name: both markers and the load found in the block" 'grep -q "^markers=2 mem=1 " <<<"$out"'
	check "QEMU $name: phase 2 written, closed, its 10 loads missed on node 1" \
		'grep -qx "phase seq=1 id=2 closed=1 io=0" "$tmp/report-$name.txt" &&
		 grep -q "^count phase=1 node=1 reads=10 writes=0 misses=10 " "$tmp/report-$name.txt"'
done
exit "$fail"
