#!/bin/bash
# tierbench on the host: the CLI contract (--list, --help, exit 2 on bad
# usage) and that every stdout line of a quick run is a results-channel line
# (README.md): ROW with the eight keys (plus optional x_mib), TAP, HIST,
# META case progress.
# Runs only what is safe on any machine: the checks and a small free-memory
# latency/fallback case; fill scenarios skip themselves above --fill-cap-mib.
set -uo pipefail
cd "$(dirname "$0")/.."
TB=build/guest/tierbench
make -s "$TB" || exit 1
[ -d /sys/devices/system/node/node0 ] || { echo "no NUMA sysfs on this host"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Captured first: stdout is line-buffered, so under pipefail "| grep -q"
# quitting at its match could fail the check with tierbench's SIGPIPE.
list=$("$TB" --list) || bad "--list exited $?"
help=$("$TB" --help) || bad "--help exited $?"
grep -q '^latency ' <<<"$list" || bad "--list lacks latency"
for b in latency fallback fallback-order features oom model chase checks threads; do
	grep -q "^$b " <<<"$list" || bad "--list lacks $b"
	grep -q "^  $b " <<<"$help" || bad "--help lacks $b"
done
for args in "" "nosuch" "latency --reps 0" "latency --policies bind,nosuch" \
	    "latency --pagesizes 1g" "latency --preferred 1+" "latency --bogus" \
	    "latency --profile quick,full" "latency --label a,b" \
	    "fallback-order --model-hmat 0=1/2/3" "fallback-order --model-hmat 64=1/2/3/4" \
	    "fallback-order --model-hmat 1=1/2/3/4,1=1/2/3/4" "latency --seed -1" "latency --seed x" \
	    "latency --cpu 1023" "latency --cpu -1" "model --model-cache-hit 1.5" \
	    "model --model-cache-hit -0.1" "model --model-cache-hit x" "model --model-cache-hit nan" \
	    "model --model-cache-hmat 0=1/2/3" "threads --threads 0" "threads --threads 65" \
	    "tiers --tiering on" "tiers --tiering"; do
	# shellcheck disable=SC2086
	out=$("$TB" $args 2>&1 >/dev/null); rc=$?
	[ "$rc" = 2 ] || bad "'$args' exited $rc, want 2"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || bad "'$args' error is not one line: $out"
done

# --list=machine (issue 14 item 4): what the host's plan reads, every
# benchmark of --list with its declared needs, then the words it prints
lm=$("$TB" --list=machine) || bad "--list=machine exited $?"
[ "$(head -1 <<<"$lm")" = "tierbench-list 1" ] || bad "--list=machine: no 'tierbench-list 1' first"
[ "$(grep -c '^bench ' <<<"$lm")" = "$(($(wc -l <<<"$list") - 1))" ] || bad "--list=machine: not one line per benchmark"
keys='^bench name=[a-z-]+ timeout=[0-9]+ every_node=[01] options=[^ ]+ mem_nodes=[0-9]+ outside_set=[01] hugetlb=[01] cpuless_node=[01] hmat=[01] oom_kill=[01] sysctls=[^ ]+$'
[ "$(grep -Evc "$keys|^word kind=[a-z]+ name=[^ ]+$|^tierbench-list 1$" <<<"$lm")" = 0 ] ||
	bad "--list=machine: lines outside its format: $(grep -Ev "$keys|^word |^tierbench-list" <<<"$lm" | head -3)"
# --help offers every word tierbench takes (guest/vocab.h)
while read -r kind word; do
	grep -qE -- " $word( |$)" <<<"$help" || bad "--help lacks $kind $word"
done < <(sed -n 's/^word kind=\(policy\|pagesize\|scenario\|profile\) name=/\1 /p' <<<"$lm")
cmp -s <(printf '%s\n' "$lm") build/guest/benches.list || bad "build/guest/benches.list is not tierbench --list=machine"
# every word it prints, the host knows: the plan reads the list and checks them
build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --bench-list <(printf '%s\n' "$lm") > /dev/null ||
	bad "labtool plan does not take tierbench --list=machine"

row='^ROW bench=[^ ,=]+ policy=[^ ,=]+ nodes=[^ ,=:]+:[^ ,=]+ pagesize=(4k|thp|2m|-) scenario=[^ ,=]+ metric=[^ ,=]+ value=(-?[0-9.]+(e[-+][0-9]+)?|nan) unit=[^ ,=]+( x_mib=[0-9]+)?$'
tap='^TAP (ok|not ok) [0-9]+ - [^#]*( # SKIP .+)?$|^TAP 1\.\.[0-9]+$'
hist='^HIST bench=[^ ]+ policy=[^ ]+ nodes=[^ ]+ pagesize=[^ ]+ scenario=[^ ]+ rep=[0-9]+ unit=(ns|insn) buckets=([0-9]+:[0-9]+(\+[0-9]+:[0-9]+)*|-)$'
# progress for the host, one per finished case
meta='^META case=[^ /]+/[^ /]+/[^ /]+/[^ /]+ outcome=[a-z_]+$'
# a memory-timing phase's label (bench/phase.c), whether or not a plugin counts
phase='^PHASE id=[0-9]+ bench=[^ ]+ policy=[^ ]+ nodes=[^ ]+ pagesize=[^ ]+ scenario=[^ ]+( x_mib=[0-9]+)?( loads=[0-9]+)?( pages=[0-9]+)?( bound=[0-9]+)?( ended=reaped)?$'
check_lines() {	# file
	local n
	n=$(grep -Evc "$row|$tap|$hist|$meta|$phase" "$1")
	[ "$n" = 0 ] || { bad "$1: $n lines outside the contract:"; grep -Ev "$row|$tap|$hist|$meta|$phase" "$1" | head -5; }
	tail -n 1 "$1" | grep -Eq '^TAP 1\.\.[0-9]+$' || bad "$1: last line is not the TAP plan"
	# TAP numbers count 1..N in order
	awk '/^TAP (ok|not ok) / { n++; id = ($2 == "ok") ? $3 : $4
		if (id != n) { print "TAP number " id ", want " n; exit 1 } }' "$1" || bad "$1: TAP numbering"
}

# --cpu (#16): a CPU the host does not have is named, with the CPUs it has
out=$("$TB" latency --cpu 1023 2>&1 >/dev/null)
grep -q '^tierbench: --cpu 1023: no such CPU (present: [0-9,-]*)$' <<<"$out" || bad "--cpu 1023: '$out'"

out=build/test_bench_cli
mkdir -p "$out"
pcp=/proc/sys/vm/percpu_pagelist_high_fraction
pcp_before=$(cat "$pcp" 2>/dev/null)
"$TB" checks --profile quick > "$out/checks.out" 2> "$out/checks.err"; rc=$?
# a sysctl checks declares (and writes) is as it was after the run
[ "$(cat "$pcp" 2>/dev/null)" = "$pcp_before" ] || bad "checks left $pcp at $(cat "$pcp"), was $pcp_before"
[ "$rc" = 0 ] || { bad "checks exited $rc"; cat "$out/checks.out"; }
check_lines "$out/checks.out"
grep -q 'prefer (many)' "$out/checks.out" || bad "checks did not test numa_maps"

"$TB" latency --profile quick --pagesizes 4k --scenarios free --policies bind,preferred-many \
	> "$out/latency.out" 2> "$out/latency.err"; rc=$?
[ "$rc" = 0 ] || bad "latency exited $rc"
check_lines "$out/latency.out"
for m in count mean p50 p90 p99 p99_9 max p50_median_of_reps p50_ci95_low p50_ci95_high; do
	grep -q "policy=preferred-many .* pagesize=4k scenario=free metric=$m " "$out/latency.out" ||
		bad "latency lacks metric $m"
done
grep -q '^HIST bench=latency_task policy=bind ' "$out/latency.out" || bad "no set_mempolicy histogram"
# the case's CPU: the first of the lowest node with CPUs unless --cpu says
first_cpu=$(sed 's/[-,].*//' "/sys/devices/system/node/node$(sed 's/[-,].*//' /sys/devices/system/node/has_cpu)/cpulist")
grep -q "^ROW bench=latency policy=- .* metric=cpu value=$first_cpu unit=id$" "$out/latency.out" ||
	bad "latency: no row cpu=$first_cpu"
# --seed (#16): recorded, each case's position a row, the same seed the same order
seeded() {	# seed -> the cases in the order they ran
	"$TB" latency --profile quick --reps 1 --mib 2 --pagesizes 4k --scenarios free \
		--policies bind,preferred,preferred-many,default --seed "$1" --cpu "$first_cpu" 2>/dev/null |
		tee "$out/latency-seed-$1.out" | awk '/metric=case_order / { print $2, $3, $8 }'
}
o1=$(seeded 7); o2=$(seeded 7); o3=$(seeded 8)
grep -q '^ROW bench=latency policy=- .* metric=order_seed value=7 unit=seed$' "$out/latency-seed-7.out" ||
	bad "--seed 7: no row order_seed 7"
[ "$(wc -l <<<"$o1")" = 9 ] || bad "--seed 7: want 9 case_order rows (4 mbind, 4 set_mempolicy, A/A): $o1"
[ -n "$o1" ] && [ "$o1" = "$o2" ] || bad "--seed 7 twice: two orders"
[ "$o1" != "$o3" ] || bad "--seed 7 and 8: the same order"
[ "$(awk '{ print $3 }' <<<"$o1" | tr '\n' ' ')" = "value=1 value=2 value=3 value=4 value=5 value=6 value=7 value=8 value=9 " ] ||
	bad "--seed 7: case_order is not 1..9 in the order the cases ran"
# the A/A case is the first case run, again
[ "$(sed -n 1p <<<"$o1" | awk '{ print $2 }')" = "$(sed -n 9p <<<"$o1" | awk '{ print $2 }')" ] &&
	sed -n 9p <<<"$o1" | grep -q '^bench=latency_aa ' || bad "--seed 7: the A/A case is not the first case's policy: $o1"
! grep -q 'metric=order_seed' "$out/latency.out" || bad "no --seed: an order_seed row"
# percentiles only where the samples carry them (#17): 512 faults, a p99, no p99.9
grep -q 'bench=latency policy=bind .* metric=p99 ' "$out/latency-seed-7.out" || bad "512 faults: no p99"
! grep -q 'bench=latency policy=bind .* metric=p99_9 ' "$out/latency-seed-7.out" || bad "512 faults: a p99_9 from too few samples"
# scenario free: one warm-up repetition, discarded (#16): a row, no HIST of its own
grep -q 'policy=bind .* scenario=free metric=warmup_reps value=1 unit=count$' "$out/latency.out" ||
	bad "latency/free: no warmup_reps 1"
[ "$(grep -c '^HIST bench=latency policy=bind .* scenario=free rep=' "$out/latency.out")" = 2 ] ||
	bad "latency/free: HIST lines are not the 2 repetitions (the warm-up's times leaked?)"
# memory timing (#21): each timed repetition is a phase, the warm-up and untimed passes not
[ "$(grep -c '^PHASE id=2 bench=latency policy=bind .* pagesize=4k scenario=free pages=4096$' "$out/latency.out")" = 2 ] ||
	bad "latency/free: PHASE lines are not one per timed repetition of 16 MiB (4096 pages)"
grep -q 'metric=p50 value=[0-9.e+]* unit=ns$' "$out/latency.out" || bad "latency p50 is not in ns by default"
# --clock icount: every timing row and histogram is in guest instructions.
"$TB" latency --clock icount --profile quick --pagesizes 4k --scenarios free --policies bind \
	> "$out/latency-icount.out" 2> "$out/latency-icount.err" || bad "latency --clock icount failed"
check_lines "$out/latency-icount.out"
for m in p50 p99 mean max p50_ci95_low clock_overhead; do
	grep -q "metric=$m value=[^ ]* unit=insn$" "$out/latency-icount.out" || bad "--clock icount: $m not in insn"
done
! grep -q 'unit=ns' "$out/latency-icount.out" || bad "--clock icount left a row in ns: $(grep -m1 unit=ns "$out/latency-icount.out")"
grep -q '^HIST .* unit=insn ' "$out/latency-icount.out" || bad "--clock icount: HIST not in insn"
out2=$("$TB" latency --clock tsc 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && grep -q 'not wall or icount' <<<"$out2" || bad "--clock tsc: exit $rc: $out2"

"$TB" fallback --profile quick --pagesizes 4k --scenarios free --policies bind \
	> "$out/fallback.out" 2> "$out/fallback.err"; rc=$?
[ "$rc" = 0 ] || { bad "fallback exited $rc"; grep '^TAP not ok' "$out/fallback.out"; }
check_lines "$out/fallback.out"
grep -q 'metric=in_mask_frac value=1 ' "$out/fallback.out" || bad "bind placed pages outside its mask"
[ "$(grep -c '^PHASE id=2 bench=fallback policy=bind .* pagesize=4k scenario=free pages=4096$' "$out/fallback.out")" = 1 ] ||
	bad "fallback/free: not one PHASE line for its touch loop"

# threads (issue 20): the host's nodes decide which layout runs; one that
# cannot is a SKIP that says why, never a failure.
"$TB" threads --profile quick --policies bind,default --threads 2 > "$out/threads.out" 2> "$out/threads.err"; rc=$?
[ "$rc" = 0 ] || { bad "threads exited $rc"; grep '^TAP not ok' "$out/threads.out"; }
check_lines "$out/threads.out"
cpus_max=0
for d in /sys/devices/system/node/node[0-9]*; do
	c=$(tr ',' '\n' < "$d/cpulist" | awk -F- 'NF { n += NF == 2 ? $2 - $1 + 1 : 1 } END { print n + 0 }')
	[ "$c" -gt "$cpus_max" ] && cpus_max=$c
done
if [ "$cpus_max" -lt 2 ]; then
	grep -q '^TAP ok [0-9]* - threads_node # SKIP no node has two online CPUs' "$out/threads.out" ||
		bad "threads_node on one CPU per node did not skip"
else
	for m in thread0_cpu thread1_cpu thread0_pages_node0 thread1_p50 local_frac concurrency; do
		grep -q "^ROW bench=threads_node policy=bind .* metric=$m " "$out/threads.out" || bad "threads_node lacks $m"
	done
	grep -q '^TAP ok [0-9]* - threads_node default: each thread' "$out/threads.out" || bad "threads_node: no default check"
fi
[ "$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" -gt 1 ] ||
	grep -q '^TAP ok [0-9]* - threads_2nodes # SKIP needs two nodes with online CPUs' "$out/threads.out" ||
	bad "threads_2nodes on one node did not skip"

# The host has one memory node: fallback-order says why it cannot run, as TAP.
"$TB" fallback-order --profile quick > "$out/fo.out" 2> "$out/fo.err"; rc=$?
[ "$rc" = 0 ] || bad "fallback-order exited $rc"
check_lines "$out/fo.out"
if [ "$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" -lt 3 ]; then
	grep -q '^TAP ok 1 - fallback-order # SKIP needs 3 memory nodes' "$out/fo.out" ||
		bad "fallback-order on a small host did not skip: $(head -3 "$out/fo.out")"
fi
# oom's needs (two memory nodes, one outside the set, vm.panic_on_oom 0) are
# the harness's to judge: a SKIP with the reason, as TAP
"$TB" oom --profile quick > "$out/oom.out" 2> "$out/oom.err"; rc=$?
[ "$rc" = 0 ] || bad "oom exited $rc"
check_lines "$out/oom.out"
if [ "$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" -lt 2 ]; then
	grep -q '^TAP ok 1 - oom # SKIP needs 2 memory nodes, guest has 1$' "$out/oom.out" ||
		bad "oom on a one-node host did not skip: $(head -3 "$out/oom.out")"
fi

"$TB" model --profile quick > "$out/model.out" 2>&1; rc=$?
[ "$rc" = 0 ] || bad "model exited $rc"
err=$("$TB" model --model-cache-hit 2 2>&1 >/dev/null)
[ "$err" = 'tierbench: --model-cache-hit: "2" is not a fraction in 0..1' ] || bad "--model-cache-hit 2: '$err'"

# The model's rows on this host's node 0, figures given: every page there,
# so every mean is the node's figure and the parallel bound is it too; a
# cache in front (10 ns, 200000 MB/s) hit half the time: 0.5 * 10 + 0.5 * 81
# = 45.5 ns, 1 / (0.5 / 200000 + 0.5 / 100000) = 133333 MB/s (costmodel.h).
m="model --profile quick --policies default --pagesizes 4k --model-hmat 0=81/86/100000/57000"
# shellcheck disable=SC2086
"$TB" $m > "$out/model-hmat.out" 2> "$out/model-hmat.err"; rc=$?
[ "$rc" = 0 ] || bad "model --model-hmat exited $rc"
check_lines "$out/model-hmat.out"
for want in model_read_latency_ns=81 model_read_bandwidth_serial_mbps=100000 \
	    model_read_bandwidth_parallel_bound_mbps=100000 model_write_bandwidth_serial_mbps=57000; do
	grep -q "policy=default .* metric=${want%=*} value=${want#*=} " "$out/model-hmat.out" ||
		bad "model: no $want"
done
grep -q 'metric=model_read_bandwidth_mbps ' "$out/model-hmat.out" && bad "model: the old arithmetic row is back"
grep -q 'metric=model_cache_hit_frac' "$out/model-hmat.out" && bad "model: a hit share without a cache"
# shellcheck disable=SC2086
"$TB" $m --model-cache-hmat 0=10/20/200000/100000 --model-cache-hit 0.5 > "$out/model-cache.out" 2>&1
for want in model_read_latency_ns=45.5 model_read_bandwidth_serial_mbps=133333 \
	    model_cache_hit_frac=0.5 model_cache_coverage_frac=1; do
	grep -q "policy=default .* metric=${want%=*} value=${want#*=} " "$out/model-cache.out" ||
		bad "model with a cache: no $want"
done

# Every bench, policy, page size and outcome the runs above printed is a
# word of --list=machine, which labtool checks it knows (guest/vocab.h).
# (scenario= also carries the fill curve's, fallback-order's settings and
# wlrun's profiles: not one list.)
printed=$(cat "$out"/*.out | grep -o '^ROW bench=[^ ]*\| policy=[^ ]*\| pagesize=[^ ]*\| metric=outcome_[^ ]*' |
	sed 's/^ROW bench=/bench /; s/^ metric=outcome_/outcome /; s/^ \([a-z]*\)=/\1 /' | grep -v ' -$' | sort -u)
[ -n "$printed" ] || bad "no policy, page size or outcome printed to check"
grep -q '^bench latency_task$' <<<"$printed" || bad "no bench= of the rows to check"
while read -r kind word; do
	grep -qx "word kind=$kind name=$word" <<<"$lm" || bad "tierbench printed $kind '$word', not in --list=machine"
done <<<"$printed"

[ "$fail" = 0 ] && echo "tierbench CLI and output contract: ok"
exit $fail
