#!/bin/sh
# Fuzz the topology parser for a while (FUZZ_SECONDS, default 60) with
# libFuzzer + ASan + UBSan, seeded with the shipped and the invalid
# topologies.  A crash fails the test and its input is kept in
# build/fuzz/crashes/; once fixed, it becomes a regression case of the
# corpus (tests/topology-invalid/NN-fuzz-what.yaml with its .err), which
# also seeds every later run.  Exit 0 pass, 1 fail, 77 skip.
CLANG=${CLANG:-clang}
SECONDS_=${FUZZ_SECONDS:-60}
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: $CLANG not installed"; exit 77; }
out=build/fuzz
mkdir -p "$out/corpus" "$out/crashes" || exit 1
if ! "$CLANG" -std=gnu11 -g -O1 -D_GNU_SOURCE -Ilab -Ilab/lib -Ilab/model -Ilab/boot -Iplugin -Ibench -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-o "$out/fuzz_topology" tests/fuzz/fuzz_topology.c lab/model/yamltree.c lab/model/topology.c lab/boot/qemu.c bench/order.c plugin/memtiming.c -lyaml \
	2>"$out/build.log"; then
	if grep -q "libclang_rt.fuzzer\|cannot find.*fuzzer" "$out/build.log"; then
		echo "SKIP: libFuzzer runtime missing (libclang-rt-14-dev)"
		exit 77
	fi
	echo "FAIL: building the fuzzer:"
	sed 's/^/    /' "$out/build.log"
	exit 1
fi
# seeds: every topology we have, valid or not (past crashes among them)
cp topologies/*.yaml tests/topology-invalid/*.yaml "$out/corpus/" || exit 1
"$out/fuzz_topology" -max_total_time="$SECONDS_" -max_len=4096 -timeout=10 \
	-rss_limit_mb=1024 -print_final_stats=1 \
	-artifact_prefix="$out/crashes/" "$out/corpus" \
	>"$out/fuzz.log" 2>&1
rc=$?
tail -n 15 "$out/fuzz.log" | grep -E "stat::number_of_executed_units|Done|ERROR|SUMMARY" | sed 's/^/    /'
if [ "$rc" -ne 0 ]; then
	echo "FAIL: the fuzzer found a crash (see $out/fuzz.log); input kept in $out/crashes/:"
	ls "$out/crashes/" | sed 's/^/    /'
	exit 1
fi
echo "ok: no crash in ${SECONDS_}s of fuzzing"
exit 0
