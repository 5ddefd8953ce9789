#!/bin/bash
# labtool collect on channels made by the real labrun (run on the host),
# then damaged on purpose: a clean channel parses fully; a truncated one
# keeps its rows, marked truncated; a flipped byte is caught as corrupt;
# a panic on the console and a host-side timeout win over both; collecting
# twice gives the same summary; a row that cannot be stored is an error
# naming its line; out of memory is exit 70, never the end of a file.
# Each collect writes only its boot's files (boots/ID.*); `labtool finish`
# makes summary.csv and guest-topology.csv from them.
set -uo pipefail
cd "$(dirname "$0")/.."
LABTOOL=${LABTOOL:-build/host/labtool}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
# collect RUN ARGS...: labtool collect's output and exit, then labtool finish
collect() {
	local rc=0
	"$LABTOOL" collect "$@" || rc=$?
	"$LABTOOL" finish "$1" || { echo "FAIL labtool finish $1"; fail=1; }
	return $rc
}

cat > "$tmp/plan" <<'PLAN'
boot 1
step rows 10 sh -c for%20i%20in%201%202%203;%20do%20echo%20ROW%20bench=b%20policy=bind%20metric=m$i%20value=$i%20unit=ns;%20done;%20echo%20TAP%20ok%201%20-%20fine
PLAN
mkdir -p "$tmp/run/raw"
# lines: BEGIN, META, STEP started, 3 ROWs, TAP, STEP, END
: > "$tmp/chan"
build/guest/labrun "$tmp/plan" "$tmp/chan" 2>/dev/null
cp "$tmp/chan" "$tmp/run/raw/channel-1.log"
: > "$tmp/run/raw/console-1.log"
out=$(collect "$tmp/run" 1 --topology t); rc=$?
check "clean channel: exit 0" '[ $rc = 0 ]'
check "clean channel: 3 rows ok" '[ "$(grep -c ",1,ok$" "$tmp/run/summary.csv")" = 3 ]'
check "clean channel: TAP counted" 'grep -q "1 ok / 0 not ok" <<<"$out"'
cp "$tmp/run/summary.csv" "$tmp/first.csv"
collect "$tmp/run" 1 --topology t >/dev/null
check "collect twice: same summary" 'cmp -s "$tmp/first.csv" "$tmp/run/summary.csv"'
# a collect that cannot write the boot's rows does not mark the boot collected
# (boots/1.status gone): --resume redoes it rather than keep a boot without rows
mv "$tmp/run/boots/1.csv" "$tmp/1.csv.keep" && mkdir "$tmp/run/boots/1.csv"
"$LABTOOL" collect "$tmp/run" 1 --topology t > /dev/null 2> "$tmp/err"; rc=$?
check "rows not written: exit 74, the boot not marked collected, said" \
	'[ $rc = 74 ] && [ ! -e "$tmp/run/boots/1.status" ] && grep -q "not marked collected" "$tmp/err"'
rmdir "$tmp/run/boots/1.csv" && mv "$tmp/1.csv.keep" "$tmp/run/boots/1.csv"
collect "$tmp/run" 1 --topology t >/dev/null
check "collected again: marked collected" '[ -s "$tmp/run/boots/1.status" ]'
check "the boot's rows in its own file, summary.csv made from it" 'cmp -s "$tmp/run/boots/1.csv" "$tmp/run/summary.csv"'

# labrun passes a step's last line without its newline, and a timed-out
# step's too; the channel's lines are "SEQ CRC PAYLOAD"
cat > "$tmp/plan-tail" <<'PLAN'
boot 1
step tail 10 sh -c printf%20last-line-without-newline
step slow 1 sh -c printf%20before-the-timeout;%20sleep%205
PLAN
: > "$tmp/chan-tail"
build/guest/labrun "$tmp/plan-tail" "$tmp/chan-tail" 2>/dev/null
check "labrun: a step's last line without newline comes as OUT" \
	'grep -q "^[0-9]* [0-9a-f]* OUT last-line-without-newline$" "$tmp/chan-tail"'
check "labrun: a timed-out step's last line comes too, then its timeout" \
	'grep -q "^[0-9]* [0-9a-f]* OUT before-the-timeout$" "$tmp/chan-tail" && grep -q "STEP name=slow status=timeout" "$tmp/chan-tail"'

# "align 1" (the plan under --clock icount): each later step starts at the
# next whole second of CLOCK_MONOTONIC, said on its STEP started frame; two
# quick steps start a second or more apart (one, unless the host stalls
# labrun past a second boundary); a bad period is a failed plan line, and
# the steps after it keep theirs
cat > "$tmp/plan-align" <<'PLAN'
boot 1
step before 10 true
align 1
step first 10 true
step second 10 true
align 0
step third 10 true
PLAN
: > "$tmp/chan-align"
build/guest/labrun "$tmp/plan-align" "$tmp/chan-align" 2>/dev/null
a1=$(sed -n 's/.*STEP name=first status=started timeout=10 aligned=\([0-9]*\)$/\1/p' "$tmp/chan-align")
a2=$(sed -n 's/.*STEP name=second status=started timeout=10 aligned=\([0-9]*\)$/\1/p' "$tmp/chan-align")
check "labrun align 1: steps after it start at whole seconds, a second or more apart; not the step before" \
	'[ -n "$a1" ] && [ -n "$a2" ] && [ "$a2" -ge $((a1 + 1)) ] && grep -q "STEP name=before status=started timeout=10$" "$tmp/chan-align"'
check "labrun align 0: a malformed plan line; the next step still aligned" \
	'grep -q "STEP name=plan-line-6 status=fail rc=-1 secs=0 error=malformed" "$tmp/chan-align" &&
	 grep -q "STEP name=third status=started timeout=10 aligned=[0-9]*$" "$tmp/chan-align"'

# Truncated: the guest died after the second row.
head -n 5 "$tmp/chan" > "$tmp/run/raw/channel-2.log"
: > "$tmp/run/raw/console-2.log"
out=$(collect "$tmp/run" 2 --topology t); rc=$?
check "truncated: exit 3" '[ $rc = 3 ]'
check "truncated: rows before the cut kept and marked" '[ "$(grep -c ",2,truncated$" "$tmp/run/summary.csv")" = 2 ]'
check "truncated: reason says no END" 'grep -q "no END line" <<<"$out"'
check "boot 1 rows untouched" '[ "$(grep -c ",1,ok$" "$tmp/run/summary.csv")" = 3 ]'
check "boot 2 wrote only its own files" '[ "$(grep -c ",1,ok$" "$tmp/run/boots/2.csv")" = 0 ] && [ "$(grep -c ",2," "$tmp/run/boots/2.csv")" = 2 ]'

# Corrupt: one byte of the second row flipped.
sed '5s/value=2/value=7/' "$tmp/chan" > "$tmp/run/raw/channel-3.log"
: > "$tmp/run/raw/console-3.log"
out=$(collect "$tmp/run" 3 --topology t); rc=$?
check "corrupt: exit 3" '[ $rc = 3 ]'
check "corrupt: only the row before the damage" '[ "$(grep -c ",3,corrupt$" "$tmp/run/summary.csv")" = 1 ]'
check "corrupt: checksum named" 'grep -q "channel-3.log:5: checksum mismatch" <<<"$out"'

# A sequence gap: a whole line lost.
sed '5d' "$tmp/chan" > "$tmp/run/raw/channel-4.log"
: > "$tmp/run/raw/console-4.log"
out=$(collect "$tmp/run" 4 --topology t); rc=$?
check "gap: sequence gap named" 'grep -q "sequence gap" <<<"$out" && [ $rc = 3 ]'

# Panic: the console says so; rows before it are kept, marked panic.
head -n 5 "$tmp/chan" > "$tmp/run/raw/channel-5.log"
printf '[    1.0] ok\n[    2.5] Kernel panic - not syncing: sysrq triggered crash\n[    2.5] CPU: 0 PID: 1\n' > "$tmp/run/raw/console-5.log"
out=$(collect "$tmp/run" 5 --topology t); rc=$?
check "panic: exit 3 and named" '[ $rc = 3 ] && grep -q "guest kernel panic: Kernel panic - not syncing: sysrq" <<<"$out"'
check "panic: rows kept, marked panic" '[ "$(grep -c ",5,panic$" "$tmp/run/summary.csv")" = 2 ]'
check "panic: excerpt kept" 'grep -q "CPU: 0 PID: 1" "$tmp/run/boots/5.panic.txt"'

# Host watchdog: an idle guest.
head -n 4 "$tmp/chan" > "$tmp/run/raw/channel-6.log"
: > "$tmp/run/raw/console-6.log"
out=$(collect "$tmp/run" 6 --topology t --qemu-status idle); rc=$?
check "idle: marked timeout" '[ $rc = 3 ] && grep -q "6: timeout" <<<"$out" && grep -q ",6,timeout$" "$tmp/run/summary.csv"'

# A row that cannot be stored is an error naming the channel's line, not a
# row in summary.csv that the report then refuses, nor a field replaced in
# silence: value= outside summary.csv's rule (lab/lib/rowvalue.h), a field twice.
cat > "$tmp/plan-bad" <<'PLAN'
boot 7
step rows 10 sh -c echo%20ROW%20bench=b%20policy=bind%20metric=good%20value=1%20unit=ns;echo%20ROW%20bench=b%20policy=bind%20metric=slash%20value=1/2%20unit=ns;echo%20ROW%20bench=b%20policy=bind%20metric=twice%20value=1%20value=2%20unit=ns
PLAN
: > "$tmp/chan-bad"
build/guest/labrun "$tmp/plan-bad" "$tmp/chan-bad" 2>/dev/null
cp "$tmp/chan-bad" "$tmp/run/raw/channel-7.log"
: > "$tmp/run/raw/console-7.log"
out=$(collect "$tmp/run" 7 --topology t 2>"$tmp/err"); rc=$?
check "bad rows: exit 1, the good row kept" '[ $rc = 1 ] && [ "$(grep -c ",7,ok$" "$tmp/run/summary.csv")" = 1 ]'
check "bad rows: value 1/2 named with file:line" 'grep -q "^channel-7.log:5: ROW: value= is neither a number nor one word" "$tmp/err"'
check "bad rows: a field twice named with file:line" 'grep -q "^channel-7.log:6: ROW: a field given twice" "$tmp/err"'
check "bad rows: the first one is the boot's reason" 'grep -q "^reason=channel-7.log:5: ROW: value=" "$tmp/run/boots/7.status"'

# Out of memory (ulimit -v) is exit 70 naming the file and line, never taken
# as the end of the file: summary.csv would be rewritten without the rest of
# its rows (a run's summary.csv from before the per-boot files, read by
# labtool finish), a channel marked truncated, a guest view "invalid" (65).  The
# plain build: ASan's shadow memory does not start under a small ulimit -v.
PLAIN=${LABTOOL_PLAIN:-build/host/labtool}
long() { head -c 24000000 /dev/zero | tr '\0' a; echo; }
cp "$tmp/run/summary.csv" "$tmp/before.csv"
{ cat "$tmp/before.csv"; long; echo "t,b,bind,-,-,-,after,1,ns,run,1,ok"; } > "$tmp/run/summary.csv"
cp "$tmp/run/summary.csv" "$tmp/long.csv"
rm "$tmp/run/boots/1.csv"	# boot 1's rows: those of summary.csv
out=$( (ulimit -v 16000; exec "$PLAIN" finish "$tmp/run") 2>&1); rc=$?
check "out of memory in summary.csv: exit 70 naming its line (got $rc: $out)" \
	'[ $rc = 70 ] && grep -q "summary.csv:$(($(wc -l <"$tmp/before.csv") + 1)): cannot read: Cannot allocate memory" <<<"$out"'
check "out of memory in summary.csv: the file left as it was" 'cmp -s "$tmp/long.csv" "$tmp/run/summary.csv"'
cp "$tmp/before.csv" "$tmp/run/summary.csv"
"$LABTOOL" finish "$tmp/run"
check "a summary.csv from before the per-boot files: a boot without its file keeps its rows" \
	'[ "$(grep -c ",1,ok$" "$tmp/run/summary.csv")" = 3 ] && cmp -s "$tmp/before.csv" "$tmp/run/summary.csv"'
{ head -n 4 "$tmp/chan"; long; } > "$tmp/run/raw/channel-8.log"
: > "$tmp/run/raw/console-8.log"
out=$( (ulimit -v 16000; exec "$PLAIN" collect "$tmp/run" 8 --topology t) 2>&1); rc=$?
check "out of memory in a channel: exit 70 naming its line (got $rc: $out)" \
	'[ $rc = 70 ] && grep -q "channel-8.log:5: cannot read: Cannot allocate memory" <<<"$out" && [ ! -e "$tmp/run/boots/8.status" ]'
{ long; echo "node,cpus"; } > "$tmp/guest-long.csv"
out=$( (ulimit -v 16000; exec "$PLAIN" check-guest topologies/dram-pmem.yaml "$tmp/guest-long.csv") 2>&1); rc=$?
check "out of memory in a guest view: exit 70, not 65 (got $rc: $out)" \
	'[ $rc = 70 ] && grep -q "guest-long.csv:1: cannot read: Cannot allocate memory" <<<"$out"'
rm -f "$tmp/long.csv" "$tmp/guest-long.csv" "$tmp/run/raw/channel-8.log"

# No stray temporary files from the atomic writes.
check "no temporary files left" '[ -z "$(find "$tmp/run" -name "*.tmp.*")" ]'
exit $fail
