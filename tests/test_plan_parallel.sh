#!/bin/bash
# A study past one machine: `--plan` makes one run directory and prints one
# command per boot into it; through GNU parallel (-j 2) and the final
# `--resume RUN` (nothing left to redo: it writes the report), the run
# equals `--boots 2 -j 2`'s: the same boot inputs (guest plans, QEMU
# command lines), the same summary rows and the same report, apart from run
# ids and dates.  Clock icount makes a boot's figures depend on its id, not
# on the host; what the guest itself does not repeat from one boot of an id
# to the next is left out and said (see "same" below).
# Also: a bad --only-boot is one line, exit 2, and writes nothing; a boot
# running in another process is waited for, not booted twice.
set -uo pipefail
cd "$(dirname "$0")/.."
parallel --version 2>/dev/null | grep -q '^GNU parallel' ||
	{ echo "needs GNU parallel (Debian's parallel; make deps)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
keep=build/test_plan_parallel	# both runs' files, when a comparison fails
args=(--boots 2 --profile quick --benches latency topologies/dram-pmem.yaml)

# --- the plan ----------------------------------------------------------------
./run-lab.sh -q --plan --results "$tmp/plan" "${args[@]}" > "$tmp/plan.txt" 2> "$tmp/finish.sh"; rc=$?
check "plan: exit 0" '[ $rc = 0 ]'
run=$(ls -d "$tmp"/plan/dram-pmem-* 2>/dev/null)
check "plan: one run directory, with run.args, started and raw/" \
	'[ "$(ls "$tmp/plan" | wc -l)" = 1 ] && [ -s "$run/run.args" ] && [ -s "$run/started" ] && [ -d "$run/raw" ]'
check "plan: no boot run yet" '[ ! -e "$run/boots" ] && [ -z "$(ls -A "$run/raw")" ]'
# Every line is a command (parallel runs each), boot ids 1 and 2 of that run.
check "plan: one command per boot, ids 1 and 2 of the run" \
	'[ "$(wc -l < "$tmp/plan.txt")" = 2 ] && ! grep -qv "^cd " "$tmp/plan.txt" &&
	 grep -q -- "--resume $run --only-boot 1 " "$tmp/plan.txt" && grep -q -- "--resume $run --only-boot 2 " "$tmp/plan.txt"'
check "plan: stderr is the final step, a script: a comment, then --resume RUN" \
	'[ "$(wc -l < "$tmp/finish.sh")" = 2 ] && head -1 "$tmp/finish.sh" | grep -q "^# " &&
	 tail -1 "$tmp/finish.sh" | grep -q -- "&& ./run-lab.sh --resume $run\$"'
check "plan: run.args holds the study's options" \
	'tr "\0" " " < "$run/run.args" | grep -q -- "--profile quick --benches latency .* --boots 2 "'

# --- a bad --only-boot: one line, exit 2, nothing written -------------------------
before=$(cd "$run" && find . -printf '%p %s %T@\n' | sort)
for bad in 0 3 x -1 01 ''; do
	out=$(./run-lab.sh --resume "$run" --only-boot "$bad" 2>&1); rc=$?
	check "--only-boot '$bad': exit 2, one line: $out" \
		'[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "^run-lab: --only-boot" <<<"$out"'
done
out=$(./run-lab.sh --results "$tmp/none" --only-boot 1 topologies/dram-pmem.yaml 2>&1); rc=$?
check "--only-boot without --resume: exit 2, one line: $out" '[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [ ! -e "$tmp/none" ]'
check "a bad --only-boot wrote nothing" '[ "$(cd "$run" && find . -printf "%p %s %T@\n" | sort)" = "$before" ]'

# --- several topologies: a run each, then a comparison ------------------------------
./run-lab.sh -q --plan --results "$tmp/multi" --boots 2 --profile quick \
	topologies/dram-pmem.yaml topologies/dram-hbm.yaml > "$tmp/multi.txt" 2> "$tmp/multi.sh"; rc=$?
pm=$(ls -d "$tmp"/multi/dram-pmem-* 2>/dev/null) hb=$(ls -d "$tmp"/multi/dram-hbm-* 2>/dev/null)
check "plan of 2 topologies: a run directory each, 2 boots each" \
	'[ $rc = 0 ] && [ "$(ls "$tmp/multi" | wc -l)" = 2 ] && [ "$(grep -c -- "--resume $pm --only-boot [12] " "$tmp/multi.txt")" = 2 ] &&
	 [ "$(grep -c -- "--resume $hb --only-boot [12] " "$tmp/multi.txt")" = 2 ] && [ "$(wc -l < "$tmp/multi.txt")" = 4 ]'
check "plan of 2 topologies: the final step resumes each, then compares them" \
	'grep -q -- "--resume $pm\$" "$tmp/multi.sh" && grep -q -- "--resume $hb\$" "$tmp/multi.sh" &&
	 tail -1 "$tmp/multi.sh" | grep -q -- "./run-lab.sh compare $pm $hb\$"'

# --- the plan through GNU parallel, then the report ------------------------------
t0=$SECONDS
parallel -j 2 < "$tmp/plan.txt" > "$tmp/parallel.log" 2>&1; rc=$?
echo "#    parallel -j 2: $((SECONDS - t0)) s"
check "parallel -j 2: every boot exit 0" '[ $rc = 0 ] || { cat "$tmp/parallel.log"; false; }'
check "both boots in the run, no report yet" \
	'[ -f "$run/boots/1.status" ] && [ -f "$run/boots/2.status" ] && [ ! -e "$run/report.md" ]'
# A boot another process is running (it holds RUN/.boot-ID.lock) is waited
# for and kept, not booted again: here a holder that "finishes" boot 2 late.
mv "$run/boots/2.status" "$tmp/2.status"
con=$(stat -c %Y.%s "$run/raw/console-2.log")
# The holder lets go only once run-lab says it waits (or after 300 s), so a
# slow start of run-lab on a loaded host cannot find the boot already done.
: > "$tmp/resume2.out"
flock "$run/.boot-2.lock" sh -c '
	i=0
	until grep -q "running in another process; waiting" "$3" || [ $i -ge 600 ]; do sleep 0.5; i=$((i + 1)); done
	sleep 1; mv "$1" "$2"' sh "$tmp/2.status" "$run/boots/2.status" "$tmp/resume2.out" &
holder=$!
while flock -n "$run/.boot-2.lock" true; do sleep 0.2; done	# until the holder has it
./run-lab.sh --resume "$run" --only-boot 2 > "$tmp/resume2.out" 2>&1; rc=$?
out=$(cat "$tmp/resume2.out")
wait "$holder"
check "a boot running in another process: waited for, kept, not booted again" \
	'[ $rc = 0 ] && grep -q "boot 2/2: running in another process; waiting" <<<"$out" &&
	 grep -q "boot 2/2: done by the other process, kept" <<<"$out" && [ "$(stat -c %Y.%s "$run/raw/console-2.log")" = "$con" ] ||
	 { echo "$out"; false; }'

bash "$tmp/finish.sh" > "$tmp/finish.log" 2>&1; rc=$?
check "final step: exit 0, both boots kept, report written" \
	'[ $rc = 0 ] && [ "$(grep -c "done before, kept" "$tmp/finish.log")" = 2 ] && [ -s "$run/report.md" ] && [ -s "$run/meta.json" ] ||
	 { cat "$tmp/finish.log"; false; }'
out=$(bash -c "$(head -1 "$tmp/plan.txt")" 2>&1); rc=$?
check "a plan line run again keeps its boot: exit 0" '[ $rc = 0 ] && [ -z "$out" ]'

# --- the same study on one machine -----------------------------------------------
t0=$SECONDS
./run-lab.sh -q --results "$tmp/whole" -j 2 "${args[@]}" > "$tmp/whole.log" 2>&1; rc=$?
echo "#    --boots 2 -j 2: $((SECONDS - t0)) s"
whole=$(ls -d "$tmp"/whole/dram-pmem-* 2>/dev/null)
check "--boots 2 -j 2: exit 0" '[ $rc = 0 ] || { cat "$tmp/whole.log"; false; }'

# The boots' inputs: the guest plan and QEMU's command line of each boot id
# (staging paths and the run directory aside).
inputs() {
	local id
	for id in 1 2; do
		cat "$1/raw/plan-$id.txt"
		sed -e "s|$1|RUN|g" -e 's|/tierlab-work\.[A-Za-z0-9]*/|/WORK/|g' "$1/raw/qemu-$id.cmd"; echo
	done
}
check "the same boots: guest plans and QEMU command lines equal" \
	'diff <(inputs "$run") <(inputs "$whole")'

# summary.csv, sorted (rows come in collection order), without the run id
# (column 10): topology,bench,policy,nodes,pagesize,scenario,metric,value,unit,boot,status
rows() { cut -d, -f1-9,11,12 "$1/summary.csv" | LC_ALL=C sort; }
rows "$run" > "$tmp/plan.rows"
rows "$whole" > "$tmp/whole.rows"
# Under icount a boot's inputs fix its kernel path lengths, not the guest's
# memory state: two boots of one id differ in their timings (insn) and in
# what depends on free memory (a few MiB from boot to boot): placement and
# outcomes under pressure and at full memory, a case the OOM killer ends
# in one boot and not the other.  So: the same cases and rows, and, timings
# and memory state aside, the same values where memory is free.
# cases FILE: case,boot and its outcome, one a line
cases() { awk -F, '$7 ~ /^outcome_/ { print $1","$2","$3","$4","$5","$6","$10","$7 }' "$1" | LC_ALL=C sort; }
check "the same cases in the same boots ($(cases "$tmp/whole.rows" | wc -l))" \
	'diff <(cases "$tmp/plan.rows" | cut -d, -f1-7) <(cases "$tmp/whole.rows" | cut -d, -f1-7)'
comm -3 <(cases "$tmp/plan.rows") <(cases "$tmp/whole.rows") | tr -d '\t' | cut -d, -f1-7 | LC_ALL=C sort -u > "$tmp/unsteady"
while read -r c; do echo "#    outcome differs between the runs: $c"; done < "$tmp/unsteady"
check "where memory is free, every case has the same outcome" '! cut -d, -f6 "$tmp/unsteady" | grep -qx free'
# steady FILE: rows of the cases with the same outcome in both runs
steady() {
	awk -F, 'FILENAME == ARGV[1] { skip[$0] = 1; next }
		!(($1","$2","$3","$4","$5","$6","$10) in skip)' "$tmp/unsteady" "$1"
}
# Where memory is full some rows exist only for some counts: a THP case's
# base-page figures only after a fallback, p99 (p99.9) only from 100 (1000)
# faults; those come and go with the memory state too.  So do the placement
# fractions (*_frac) of a case the OOM killer ended in both runs: they exist
# only when the kill came after the case measured where its pages were (one
# CI run: default thp under pressure, killed in both, placed in one).
keyrows() {
	steady "$1" > "$tmp/keyrows.in"
	awk -F, 'NR == FNR { if ($7 == "outcome_oom_killed" && $8 + 0 == 1) killed[$1","$2","$3","$4","$5","$6","$10] = 1; next }
		($6 == "free" || $7 !~ /^((base|huge)_fault_(p50|mean)|p99|p99_9)$/) &&
		!((($1","$2","$3","$4","$5","$6","$10) in killed) && $7 ~ /_frac$/)' "$tmp/keyrows.in" "$tmp/keyrows.in" |
		cut -d, -f1-7,9- | LC_ALL=C sort
}
check "the same rows (case, metric, unit, boot, status) apart from those cases" \
	'diff <(keyrows "$tmp/plan.rows") <(keyrows "$tmp/whole.rows") > "$tmp/keys.diff" ||
	 { head -n 10 "$tmp/keys.diff"; false; }'
# values: scenario free, not a timing (insn, harness_overhead_ratio) nor memory state (MiB)
fixed() { steady "$1" | awk -F, '$6 == "free" && $9 != "insn" && $9 != "MiB" && $7 != "harness_overhead_ratio"'; }
check "the same values where memory is free, timings aside ($(fixed "$tmp/whole.rows" | wc -l) rows: placement, counts, outcomes)" \
	'diff <(fixed "$tmp/plan.rows") <(fixed "$tmp/whole.rows") > "$tmp/rows.diff" || { head -n 10 "$tmp/rows.diff"; false; }'
echo "#    rows with another value in the other run: $(diff "$tmp/plan.rows" "$tmp/whole.rows" | grep -c '^<') of $(wc -l < "$tmp/plan.rows")"
# the report is made from the same files, by the same final step as --resume;
# the sections that list cases by outcome (did not complete, invalid) come
# and go with the outcomes under pressure above (one CI run had an invalid
# pressure case in one run only), so they are left out of the comparison
# when, and only when, some outcome differed between the runs
sections() {
	if [ -s "$tmp/unsteady" ]; then
		grep "^## " "$1/report.md" | grep -v -e "did not complete" -e "^## Invalid cases"
	else
		grep "^## " "$1/report.md"
	fi
}
check "both reports written, with the same sections (those listing cases by outcome aside when outcomes differed)" \
	'diff <(sections "$run") <(sections "$whole")'
check "guest topology equal" 'cmp -s "$run/guest-topology.csv" "$whole/guest-topology.csv"'
if [ "$fail" != 0 ]; then
	rm -rf "$keep" && mkdir -p "$keep"
	cp -r "$run" "$keep/plan" && cp -r "$whole" "$keep/whole" && rm -rf "$keep"/*/raw
	echo "#    both runs (without raw/) kept in $keep"
fi
exit $fail
