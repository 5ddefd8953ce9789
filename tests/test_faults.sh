#!/bin/bash
# Faults injected on purpose end in a clear report and keep every row made
# before them: a forced guest panic, a step that hangs (in-guest timeout), a
# guest that goes silent (host watchdog), and a run killed mid-way and then
# resumed, whose summary equals an uninterrupted run's apart from run ids.
set -uo pipefail
cd "$(dirname "$0")/.."
topo=topologies/dram-pmem.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
row='echo ROW bench=pre policy=- metric=m value=1 unit=n'

# 1. Forced panic: rows before it are kept and marked.  The pause lets
# labrun read the row from the step's pipe: a row still in the pipe when the
# kernel dies never left the step, and no guest-side framing can save it.
out=$(./run-lab.sh -q --results "$tmp/panic" --exec "$row; sleep 1; echo c > /proc/sysrq-trigger" "$topo" 2>&1); rc=$?
check "panic: exit 3" '[ $rc = 3 ]'
check "panic: reported as a guest kernel panic" 'grep -q "guest kernel panic" <<<"$out"'
check "panic: console excerpt shown" 'grep -q "sysrq" <<<"$out"'
check "panic: the row before it kept, marked panic" 'grep -q ",pre,.*,panic$" "$tmp"/panic/*/summary.csv'

# 2. A hung step: the guest's own timeout kills it; the boot itself is fine.
# It gets SIGTERM first, and time to act on it (tierbench puts back the
# sysctls it changed): the step's shell notes the TERM on the console.
# A directory added at a path of its own choosing comes along (--add SRC:DEST).
mkdir -p "$tmp/suite/sub" && echo tierlab-test-added > "$tmp/suite/sub/hello"
hang="$row; cat /opt/suite/sub/hello; echo tierlab-test-stderr >&2; trap 'echo tierlab-test-term-seen > /dev/kmsg; exit 1' TERM; sleep 600 & wait"
out=$(./run-lab.sh -q --results "$tmp/hang" --step-timeout 5 --add "$tmp/suite:/opt/suite" --exec "$hang" "$topo" 2>&1); rc=$?
# run-lab's own code 4, not the command's 124: a command's status is never
# passed through (its "exit 2" would read as bad usage), it is said instead
check "hung step: exit 4 (the command failed), its status 124 said, boot ok" '[ $rc = 4 ] && grep -q "step exec: timeout" <<<"$out" && grep -q "the command exited with status 124 (run-lab exits 4)" <<<"$out"'
check "hung step: row kept, boot ok" 'grep -q ",pre,.*,ok$" "$tmp"/hang/*/summary.csv'
check "hung step: SIGTERM before SIGKILL, acted on" 'grep -q "tierlab-test-term-seen" "$tmp"/hang/*/raw/console-1.log'
check "--exec: the command's stderr comes back with its output" 'grep -q "tierlab-test-stderr" <<<"$out"'
check "--add DIR:DEST: the tree is in the guest at DEST" 'grep -q "tierlab-test-added" <<<"$out"'
check "--exec: meta.json names no benchmark" 'grep -q "benches=none workloads=none" "$tmp"/hang/*/meta.json'

# 3. A silent guest: the host watchdog kills QEMU and marks the boot.  The
# guest spins rather than sleeps: under icount (sleep=off) an idle guest's
# clock jumps to its next timer, so "sleep 600" ends in a few host seconds
# and the guest is never silent for long (seen: the boot ended ok).  The
# limit is 60 s, not 15: a healthy icount boot on this 2-core host, loaded
# by a kernel build, went 15.0 host s without a console byte (guest time
# 1.25 s for the whole boot; init_secs 34.6), and a 15 s limit killed it
# before the step's row (seen: "row kept" failed).
out=$(./run-lab.sh -q --results "$tmp/idle" --idle-timeout 60 --exec "$row; while :; do :; done" "$topo" 2>&1); rc=$?
check "silent guest: exit 3, marked timeout" '[ $rc = 3 ] && grep -q "timeout" <<<"$out"'
check "silent guest: row kept, marked timeout" 'grep -q ",pre,.*,timeout$" "$tmp"/idle/*/summary.csv'
check "silent guest: no QEMU left" '! pgrep -f "$tmp/idle" >/dev/null'

# 4. Killed and resumed.  Boot 2 of 3 sleeps so the kill lands inside it.
cmd='echo ROW bench=r policy=- metric=m value=$(cat /proc/sys/kernel/random/boot_id | cut -c1-1 | tr -c 0-9 7) unit=n; echo ROW bench=r2 policy=- metric=k value=2 unit=n; sleep 3'
./run-lab.sh -q --results "$tmp/whole" --boots 3 --exec "$cmd" "$topo" >/dev/null 2>&1
./run-lab.sh -q --results "$tmp/cut" --boots 3 --exec "$cmd" "$topo" >/dev/null 2>&1 &
pid=$!
# Kill once boot 2's guest is printing (a state, not a delay: under load a
# fixed sleep landed before boot 2 or after the run).
for _ in $(seq 1 3000); do
	[ -s "$(ls "$tmp"/cut/*/raw/console-2.log 2>/dev/null | head -1)" ] && break
	sleep 0.1
done
kill -TERM "$pid"
wait "$pid"; rc=$?
run=$(ls -d "$tmp"/cut/*)
check "killed: exit 130" '[ $rc = 130 ]'
check "killed: no QEMU left" '! pgrep -f "$run" >/dev/null'
check "killed: boot 3 not started" '[ ! -f "$run/boots/3.status" ]'
out=$(./run-lab.sh --resume "$run" 2>&1); rc=$?
check "resume: exit 0" '[ $rc = 0 ]'
check "resume: boot 1 kept, not redone" 'grep -q "boot 1/3: done before, kept" <<<"$out"'
strip() { cut -d, -f1-9,11,12 "$1" | sed 's/,r,-,-,-,-,m,[0-9]*,/,r,-,-,-,-,m,X,/'; }
check "resume: summary equals an uninterrupted run's" 'diff <(strip "$run/summary.csv") <(strip "$tmp"/whole/*/summary.csv)'
check "resume: rows for all 3 boots" '[ "$(grep -c ",r2," "$run/summary.csv")" = 3 ]'
exit $fail
