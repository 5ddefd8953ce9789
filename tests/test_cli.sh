#!/bin/bash
# Bad input to run-lab.sh: one clear line, non-zero exit, nothing written
# under the results directory, no QEMU started.  None of these boots.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
res=$tmp/results
# expect CODE PATTERN ARGS...: exit CODE, stderr one line matching PATTERN
expect() {
	local code=$1 pat=$2 out rc
	shift 2
	out=$(./run-lab.sh -q --results "$res" "$@" 2>&1 >/dev/null); rc=$?
	# an invalid topology may have several problems, one line each
	if [ "$rc" != "$code" ] || ! grep -qE -- "$pat" <<<"$out" ||
		{ [ "$code" != 65 ] && [ "$(wc -l <<<"$out")" != 1 ]; }; then
		echo "FAIL run-lab.sh $*: exit $rc (want $code), stderr: $out"
		fail=1
	else
		echo "ok   run-lab.sh $* -> $out"
	fi
	if [ -n "$(ls -A "$res" 2>/dev/null)" ]; then
		echo "FAIL run-lab.sh $*: wrote under $res"
		fail=1
	fi
}
expect 2 "unknown option '--frobnicate'" --frobnicate
expect 2 "--profile: 'huge' is not one of quick, default, full" --profile huge
expect 2 "--fits: 'maybe' is not yes, no or unknown" --fits maybe
expect 2 "--kernel: '7.0' is not patched, patched:N, upstream or 6.1" --kernel 7.0
expect 2 "--kernel: 'patched:0': N must be a patch count from 1" --kernel patched:0
expect 2 "--kernel: 'patched:2x': N must be a patch count from 1" --kernel patched:2x
expect 2 "--kernel: patched:99: kernel/series has $(grep -c '^[^#[:space:]]' kernel/series) patches" --kernel patched:99
expect 2 "--boots: 'x' is not a positive integer" --boots x
expect 2 "--memory-timing: 'sleep' is not off, count or delay" --memory-timing sleep
expect 2 "--memory-timing count needs TCG; --accel kvm conflicts with it" --memory-timing count --accel kvm --clock wall
# delay injection waits on the host: invisible to a guest clock that counts instructions
expect 2 "--memory-timing delay needs --clock wall: under --clock icount the guest's clock counts instructions" --memory-timing delay
expect 2 "--memory-timing delay needs --clock wall" --memory-timing delay --clock icount
expect 2 "--memory-timing delay needs TCG; --accel kvm conflicts with it" --memory-timing delay --accel kvm --clock wall
expect 2 "--idle-timeout: '0' is not" --idle-timeout 0
expect 2 "-j: 'many' is not a positive integer" -j many
expect 2 "--exec runs one command instead of the benchmarks" --exec true --benches latency
expect 2 "--benches: unknown benchmark .frob." --benches latency,frob
expect 2 "--workloads: unknown workload .nope." --workloads stress-vm,nope
expect 2 "--profile needs a value" --profile
expect 2 "--clock: 'tsc' is not icount or wall" --clock tsc
expect 2 "--clock icount needs TCG; --accel kvm conflicts" --accel kvm
expect 2 "--clock icount needs TCG; --accel kvm conflicts" --clock icount --accel kvm
expect 66 "nope.yaml: no such readable topology file" nope.yaml
expect 66 "--add: /nonexistent: not a readable file" --add /nonexistent
expect 2 "--resume takes exactly one run directory" --resume "$tmp"
out=$(./run-lab.sh --resume "$tmp" 2>&1); rc=$?
if [ "$rc" = 66 ] && grep -q "not a run directory" <<<"$out"; then
	echo "ok   run-lab.sh --resume DIR-WITHOUT-RUN -> $out"
else
	echo "FAIL run-lab.sh --resume $tmp: exit $rc: $out"; fail=1
fi
# The clock reaches QEMU, the guest plan and the plan for other machines.
qi=$(./run-lab.sh --print-qemu topologies/dram-pmem.yaml 2>/dev/null)
qw=$(./run-lab.sh --clock wall --print-qemu topologies/dram-pmem.yaml 2>/dev/null)
if grep -qF -- '-icount shift=0\,align=off\,sleep=off' <<<"$qi" && ! grep -q -- '-icount' <<<"$qw"; then
	echo "ok   --print-qemu: -icount by default, none with --clock wall"
else
	echo "FAIL --print-qemu: icount args wrong: default: $qi; wall: $qw"; fail=1
fi
# A boot by hand: --print-qemu names the reclaim disks relative to where
# QEMU runs, `labtool disks .` makes them there, and the guest finds them
# (no "reclaim disks" error on its console before /init).
lt=${LABTOOL:-build/host/labtool}
if grep -qF -- '-drive file=swap.img\,' <<<"$qi" && grep -qF -- '-drive file=fs.img\,' <<<"$qi"; then
	echo "ok   --print-qemu: the reclaim disks, relative to QEMU's directory"
else
	echo "FAIL --print-qemu: no reclaim disks: $qi"; fail=1
fi
out=$("$lt" disks "$tmp/no/such/dir" 2>&1); rc=$?
if [ "$rc" = 74 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "$tmp/no/such/dir/swap.img" <<<"$out"; then
	echo "ok   labtool disks into a missing directory: exit 74, one line naming the file"
else
	echo "FAIL labtool disks into a missing directory: exit $rc: $out"; fail=1
fi
mkdir -p "$tmp/byhand"
if (cd "$tmp/byhand" && "$lt" disks . && timeout 600 bash -c "$qi" > qemu.out 2>&1) &&
	grep -q "tierlab: /init reached" "$tmp/byhand/console.log" &&
	! grep -q "reclaim disks" "$tmp/byhand/console.log" &&
	[ "$(od -An -c -j 4086 -N 10 "$tmp/byhand/swap.img" | tr -d ' ')" = SWAPSPACE2 ]; then
	echo "ok   --print-qemu's line boots by hand after labtool disks ., the guest finds its disks"
else
	echo "FAIL --print-qemu by hand: $(tail -n 3 "$tmp/byhand/qemu.out" "$tmp/byhand/console.log" 2>&1)"; fail=1
fi
# Guest memory preallocated unless --no-prealloc (labtool qemu-argv, not a
# string patch of its output).
qn=$(./run-lab.sh --no-prealloc --print-qemu topologies/dram-pmem.yaml 2>&1)
if [ "$(grep -o 'prealloc=on' <<<"$qi" | wc -l)" = 2 ] && [ "$(grep -o 'prealloc=off' <<<"$qn" | wc -l)" = 2 ] &&
	! grep -q 'prealloc=on' <<<"$qn"; then
	echo "ok   --print-qemu: prealloc=on by default, off with --no-prealloc"
else
	echo "FAIL --print-qemu: prealloc: default: $qi; --no-prealloc: $qn"; fail=1
fi
pl=$(./run-lab.sh -q --plan --results "$tmp/plan" --boots 2 --clock wall --profile quick topologies/dram-pmem.yaml 2>/dev/null)
if [ "$(grep -c -- '--only-boot' <<<"$pl")" = 2 ] && tr '\0' ' ' < "$tmp"/plan/*/run.args | grep -q -- '--clock wall'; then
	echo "ok   --plan carries --clock"
else
	echo "FAIL --plan does not carry --clock: $pl"; fail=1
fi
# A boot's inputs from the run's own options (labtool prepare, no boot): the
# plan labtool plan makes for that boot id, the command labtool qemu-argv
# makes, both kept under raw/; a boot id the run does not have writes nothing.
prun=$(ls -d "$tmp"/plan/*)
build/host/labtool prepare "$prun" 2 --kernel /K --initrd /I --accel tcg > "$tmp/argv"; rc=$?
build/host/labtool qemu-argv topologies/dram-pmem.yaml --kernel /K --initrd /I --accel tcg --clock wall \
	--console "$prun/raw/console-2.log" --channel "$prun/raw/channel-2.log" \
	--swap-disk /swap.img --fs-disk /fs.img > "$tmp/argv-want"
if [ "$rc" = 0 ] && cmp -s "$tmp/argv" "$tmp/argv-want" &&
	diff <(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 2 --profile quick --clock wall) "$prun/raw/plan-2.txt" >/dev/null &&
	[ "$(tr -d "'" < "$prun/raw/qemu-2.cmd")" = "$(tr '\0' ' ' < "$tmp/argv")" ] &&
	! build/host/labtool prepare "$prun" 3 --kernel /K --initrd /I --accel tcg >/dev/null 2>&1 &&
	[ "$(ls "$prun/raw")" = "$(printf 'plan-2.txt\nqemu-2.cmd')" ]; then
	echo "ok   labtool prepare: boot 2's plan and QEMU command from run.args; boot 3 refused"
else
	echo "FAIL labtool prepare: exit $rc; raw/: $(ls "$prun/raw" | tr '\n' ' ')"; fail=1
fi
# Under icount, boot 2's command is qemu-argv's for boot id 2 (its -seed that
# id's); boot 1's differs from it in the seed alone
pl=$(./run-lab.sh -q --plan --results "$tmp/iplan" --boots 2 --clock icount --profile quick topologies/dram-pmem.yaml 2>/dev/null)
irun=$(ls -d "$tmp"/iplan/*)
build/host/labtool prepare "$irun" 2 --kernel /K --initrd /I --accel tcg > "$tmp/iargv"; rc=$?
qa() {	# qa ID: qemu-argv of boot ID of that run, one word a line
	build/host/labtool qemu-argv topologies/dram-pmem.yaml --kernel /K --initrd /I --accel tcg --clock icount \
		--boot-id "$1" --console "$irun/raw/console-2.log" --channel "$irun/raw/channel-2.log" \
		--swap-disk /swap.img --fs-disk /fs.img | tr '\0' '\n'
}
if [ "$rc" = 0 ] && diff <(tr '\0' '\n' < "$tmp/iargv") <(qa 2) >/dev/null &&
	[ "$(diff <(qa 1) <(qa 2) | grep -c '^[<>]')" = 2 ] && [ "$(grep -A1 -x -- -seed <(qa 1) | tail -1)" != "$(grep -A1 -x -- -seed <(qa 2) | tail -1)" ] &&
	grep -qx 'base=2025-01-01T00:00:00,clock=vm' <(qa 2) && grep -q ' tsc=reliable' <(qa 2); then
	echo "ok   labtool prepare under icount: boot 2's command, its own -seed, the fixed RTC, tsc=reliable"
else
	echo "FAIL labtool prepare under icount: exit $rc; $(diff <(tr '\0' '\n' < "$tmp/iargv") <(qa 2) | head -4)"; fail=1
fi
# prepare --base writes the boot's initramfs: the base image, then the tree
# run-lab.sh staged before 2026-12-07 (find | sort | cpio of the plan and
# the --add files, cp -r), the same names, modes and bytes.
mkdir -p "$tmp/add/suite/sub" && echo hi > "$tmp/add/suite/sub/hello" && printf '#!/bin/sh\n' > "$tmp/add/tool" &&
	chmod 755 "$tmp/add/tool" && ln -s sub/hello "$tmp/add/suite/link"
eval "$(build/host/labtool args --lab "$PWD" -- -q --results "$tmp/addres" --add "$tmp/add/tool" \
	--add "$tmp/add/suite:/opt/suite" --add "$tmp/add/tool:/opt" topologies/dram-pmem.yaml)"
arun=$(build/host/labtool init -- "${opts[@]}" -- "${topologies[@]}")
mkdir -p "$tmp/old/root/lab" "$tmp/old/root/bin" "$tmp/new" "$tmp/oldx"
build/host/labtool prepare "$arun" 1 --kernel /K --initrd "$tmp/new.cpio" --accel tcg --base /dev/null >/dev/null; rc=$?
cp "$arun/raw/plan-1.txt" "$tmp/old/root/lab/plan"
for a in "${adds[@]}"; do
	mkdir -p "$(dirname "$tmp/old/root/${a##*:/}")" && cp -r "${a%:/*}" "$tmp/old/root/${a##*:/}"
done
(cd "$tmp/old/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$tmp/old.cpio"
if [ "$rc" = 0 ] && (cd "$tmp/new" && cpio -idm --quiet < "$tmp/new.cpio") &&
	(cd "$tmp/oldx" && cpio -idm --quiet < "$tmp/old.cpio") &&
	diff <(cpio -it --quiet < "$tmp/old.cpio") <(cpio -it --quiet < "$tmp/new.cpio") &&
	diff <(cd "$tmp/oldx" && find . -printf '%p %M %l\n' | sort) <(cd "$tmp/new" && find . -printf '%p %M %l\n' | sort) &&
	diff -r "$tmp/oldx" "$tmp/new" >/dev/null && [ -L "$tmp/new/opt/suite/link" ] && [ -f "$tmp/new/opt/tool" ]; then
	echo "ok   labtool prepare --base: the initramfs holds what find | sort | cpio of the staging tree held"
else
	echo "FAIL labtool prepare --base: exit $rc; archive differs from the shell's staging"; fail=1
fi
rm -f "$prun"/raw/*
gp=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --clock icount --benches latency,oom)
gw=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --clock wall --benches latency,oom)
if [ "$(grep -c '^step .* tierbench .* --clock icount' <<<"$gp")" = 2 ] && ! grep -q -- --clock <<<"$gw" &&
	[ "$(sed -n 2p <<<"$gp")" = "align 1" ] && ! grep -q '^align' <<<"$gw"; then
	echo "ok   labtool plan --clock icount tells every tierbench step, and aligns the steps (align 1); wall neither"
else
	echo "FAIL labtool plan --clock: $gp"; fail=1
fi
# #16: latency's case order is seeded by the boot id, the same again for the same boot
s1=$(sed -n 's/^step latency-.* --seed \([0-9]*\).*/\1/p' <<<"$gw")
s1b=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --benches latency | sed -n 's/^step latency-.* --seed \([0-9]*\).*/\1/p')
s2=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 2 --benches latency | sed -n 's/^step latency-.* --seed \([0-9]*\).*/\1/p')
if [ -n "$s1" ] && [ "$s1" = "$s1b" ] && [ -n "$s2" ] && [ "$s1" != "$s2" ] && ! grep -q '^step oom-.* --seed' <<<"$gw"; then
	echo "ok   labtool plan seeds latency's order by the boot id ($s1, $s2)"
else
	echo "FAIL labtool plan --seed: boot 1 '$s1'/'$s1b', boot 2 '$s2': $gw"; fail=1
fi
# Issue 14 item 4: the plan reads each benchmark's needs and options from
# tierbench --list=machine (build/guest/benches.list), not from a copy.
lst=build/guest/benches.list
# a benchmark the list does not know is refused, naming those it knows
out=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --benches latency,nosuch 2>&1 >/dev/null); rc=$?
if [ "$rc" = 64 ] && grep -q "^labtool plan: --benches: 'nosuch' is not a benchmark of tierbench (have: latency .*chase" <<<"$out"; then
	echo "ok   labtool plan --benches: an unknown benchmark is refused with the list"
else
	echo "FAIL labtool plan --benches nosuch: exit $rc: $out"; fail=1
fi
# needs declared in the list decide the default plan: latency asking for 5
# memory nodes leaves it out on 2, chase's every_node makes one step
sed 's/^bench name=latency \(.*\) mem_nodes=1 /bench name=latency \1 mem_nodes=5 /' "$lst" > "$tmp/needs5.list"
d1=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1)
d5=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --bench-list "$tmp/needs5.list")
c=$(build/host/labtool plan topologies/three-tier.yaml --boot-id 1 --benches chase,fallback-order)
if grep -q '^step latency-pmem ' <<<"$d1" && ! grep -q '^step latency-' <<<"$d5" &&
   [ "$(grep -vc '^step latency-' <<<"$d1")" = "$(wc -l <<<"$d5")" ] &&
   ! grep -q '^step fallback-order-' <<<"$d1" &&
   [ "$(grep -c '^step chase ' <<<"$c")" = 1 ] && ! grep -q '^step chase .*--preferred' <<<"$c" &&
   grep -q '^step fallback-order-.* --model-hmat ' <<<"$c"; then
	echo "ok   labtool plan: declared needs and options (tierbench --list=machine) shape the plan"
else
	echo "FAIL labtool plan from the bench list: default '$d1', latency needing 5 '$d5', chase '$c'"; fail=1
fi
# a word tierbench prints that labtool does not know stops the plan (guest/vocab.h)
{ cat "$lst"; echo 'word kind=outcome name=evaporated'; } > "$tmp/word.list"
out=$(build/host/labtool plan topologies/dram-pmem.yaml --boot-id 1 --bench-list "$tmp/word.list" 2>&1 >/dev/null); rc=$?
if [ "$rc" = 66 ] && grep -q "word.list:[0-9]*: tierbench prints outcome 'evaporated', which labtool does not know" <<<"$out"; then
	echo "ok   labtool plan: a word of tierbench's that labtool does not know is an error naming its line"
else
	echo "FAIL labtool plan with an unknown word: exit $rc: $out"; fail=1
fi
printf 'name: bad\nnodes: []\n' > "$tmp/empty-nodes.yaml"
expect 65 "empty-nodes.yaml:" "$tmp/empty-nodes.yaml"
# Untrusted text stays data: a name that is a command substitution.
printf 'name: "$(touch %s/pwned)"\n' "$tmp" > "$tmp/evil.yaml"
cat topologies/dram-pmem.yaml | grep -v '^name:' >> "$tmp/evil.yaml"
expect 65 "evil.yaml:1:" "$tmp/evil.yaml"
[ ! -e "$tmp/pwned" ] || { echo "FAIL a topology name was executed"; fail=1; }
touch "$tmp/file"
out=$(./run-lab.sh --results "$tmp/file/sub" --exec true 2>&1 >/dev/null); rc=$?
if [ "$rc" = 2 ] && grep -q "cannot create or write the results directory" <<<"$out"; then
	echo "ok   unwritable results directory -> $(tail -n 1 <<<"$out")"
else
	echo "FAIL unwritable results directory: exit $rc: $out"; fail=1
fi
# A full disk: refused before anything is written (needs root for a small tmpfs).
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/full" && mount -t tmpfs -o size=256k tmpfs "$tmp/full" 2>/dev/null; then
	dd if=/dev/zero of="$tmp/full/filler" bs=4k count=48 status=none 2>/dev/null
	out=$(./run-lab.sh -q --results "$tmp/full/results" --exec true 2>&1 >/dev/null); rc=$?
	left=$(find "$tmp/full" -mindepth 1 ! -name filler | wc -l)
	umount "$tmp/full"
	if [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && [ "$left" = 0 ] &&
	   grep -q "^run-lab: $tmp/full/results: only 0 MiB free; this run needs about [0-9]* MiB" <<<"$out"; then
		echo "ok   full disk -> $out"
	else
		echo "FAIL full disk: exit $rc, $left files written: $out"; fail=1
	fi
else
	echo "ok   full disk # SKIP needs root to mount a small tmpfs"
fi
# --resume of a finished run: a kept boot whose guest view differs from the
# topology still fails the run (exit 1), as it did when it booted.
res=$tmp/resume/dram-pmem-20261202-215445
mkdir -p "$tmp/resume" && cp -r tests/fixtures/run-small "$res"
printf '%s\0' --profile quick --benches default --workloads none --kernel patched --accel tcg \
	--boots 1 --idle-timeout 300 --boot-timeout 3600 -j 1 --results "$tmp/resume" -- \
	"$PWD/topologies/dram-pmem.yaml" > "$res/run.args"
echo 2026-12-02T21:54:45+00:00 > "$res/started"
./run-lab.sh --resume "$res" -q >/dev/null 2>"$tmp/resume.err"; rc_same=$?
sed -i '3s/^1,-,\([0-9]*\),/1,-,9\1,/' "$res/guest-topology.csv"
./run-lab.sh --resume "$res" -q >/dev/null 2>>"$tmp/resume.err"; rc_diff=$?
if [ "$rc_same" = 0 ] && [ "$rc_diff" = 1 ] &&
	grep -q "^run-lab: boot 1/1: the guest's view of the machine differs from" "$tmp/resume.err"; then
	echo "ok   --resume: a kept boot's guest view is checked again (0 matching, 1 differing)"
else
	echo "FAIL --resume: kept boot's guest view: exit $rc_same matching, $rc_diff differing (want 0, 1)"
	sed 's/^/    /' "$tmp/resume.err" | tail -n 5; fail=1
fi
# meta.json's one writer (labtool meta, lab/rundir/meta.h): the resume completed the
# fixture's jq-era file, keeping its start and adding the format and the end.
meta() { build/host/labtool meta get "$res" "$1" 2>/dev/null; }
if [ "$(meta meta_format)" = 1 ] && [ "$(meta start)" = 2026-12-02T21:54:45+00:00 ] &&
	[ "$(meta summary_format)" = "" ] && [ -n "$(meta end)" ] && [ "$(meta end)" != 2026-12-02T21:57:31+00:00 ] &&
	[ "$(meta kernel_release)" = "$(cat "$(kernel/build.sh --path)/release")" ] && ! grep -q jq run-lab.sh; then
	echo "ok   --resume: meta.json completed by labtool meta (format 1, start kept, end and kernel now)"
else
	echo "FAIL --resume: meta.json not completed by labtool meta:"; sed 's/^/    /' "$res/meta.json"; fail=1
fi
# A run begun without meta.json gets it at --resume, from run.args and started.
rm "$res/meta.json"
./run-lab.sh --resume "$res" -q >/dev/null 2>&1
if [ "$(meta start)" = 2026-12-02T21:54:45+00:00 ] && [ "$(meta clock)" = wall ] && [ "$(meta time_unit)" = ns ] &&
	[ "$(meta topologies)" = "$PWD/topologies/dram-pmem.yaml" ] && [ "$(meta fits)" = unknown ] &&
	grep -q "\"hash\": \"$(sha256sum < topologies/dram-pmem.yaml | cut -c1-16)\"" "$res/meta.json" &&
	[ "$(meta summary_format)" = 2 ] && [ -n "$(meta end)" ]; then
	echo "ok   --resume without meta.json: labtool meta init, then end"
else
	echo "FAIL --resume without meta.json:"; sed 's/^/    /' "$res/meta.json"; fail=1
fi
# A newer lab's meta.json: refused in one line naming it, exit 65, left as it is.
cp tests/fixtures/run-small/guest-topology.csv "$res/"	# the view matches again: no other line
sed -i 's/"meta_format": 1/"meta_format": 2/' "$res/meta.json"
cp "$res/meta.json" "$tmp/newer-meta.json"
rm -f "$res/report.md"
out=$(./run-lab.sh --resume "$res" -q 2>&1 >/dev/null); rc=$?
if [ "$rc" = 65 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -qF "$res/meta.json: meta_format 2 is newer" <<<"$out" &&
	cmp -s "$tmp/newer-meta.json" "$res/meta.json" && [ ! -e "$res/report.md" ]; then
	echo "ok   --resume of a newer meta_format -> $out"
else
	echo "FAIL --resume of a newer meta_format: exit $rc: $out"; fail=1
fi

# labtool multi (several topologies, lab/rundir/cmd_multi.c) against a stand-in
# for run-lab.sh: one run each with the options and -q, the worst exit, a
# comparison that fails said (after compare's own words); an interrupted run (130), or a
# SIGTERM to labtool handed on to the run in flight, ends the loop with 130.
cat > "$tmp/fake-run-lab" <<'EOS'
#!/bin/bash
t=${*: -1}; n=$(basename "$t" .yaml)
echo "$*" >> "$FAKE_LOG"
mkdir -p "$FAKE_RES/$n" && echo "$FAKE_RES/$n" > "$TIERLAB_RUN_DIR_FILE"
trap 'echo "$n: TERM" >> "$FAKE_LOG"; kill $(jobs -p) 2>/dev/null; exit 130' TERM
case $n in rc3) exit 3 ;; int) exit 130 ;; slow) sleep 30 & wait ;; esac
EOS
chmod +x "$tmp/fake-run-lab"
export FAKE_LOG=$tmp/fake.log FAKE_RES=$tmp/fakeres
multi() { build/host/labtool multi -q "$tmp/fake-run-lab" -- --profile quick --results "$tmp/fakeres" -- "$@"; }
out=$(multi a.yaml rc3.yaml b.yaml 2>&1); rc=$?
if [ "$rc" = 3 ] && [ "$(tail -n 1 <<<"$out")" = "run-lab: the comparison report failed" ] &&
	[ "$(wc -l < "$FAKE_LOG")" = 3 ] &&
	grep -q -- '^--profile quick .* -q b.yaml$' "$FAKE_LOG" && [ -z "$(ls "$tmp"/fakeres | grep compare)" ]; then
	echo "ok   labtool multi: a run per topology, the worst exit, a failed comparison said"
else
	echo "FAIL labtool multi: exit $rc, said: $out; runs: $(cat "$FAKE_LOG")"; fail=1
fi
rm -f "$FAKE_LOG"
multi a.yaml int.yaml b.yaml >/dev/null 2>&1; rc=$?
if [ "$rc" = 130 ] && [ "$(wc -l < "$FAKE_LOG")" = 2 ]; then
	echo "ok   labtool multi: an interrupted run ends the loop, exit 130"
else
	echo "FAIL labtool multi: interrupted run: exit $rc; runs: $(cat "$FAKE_LOG")"; fail=1
fi
rm -f "$FAKE_LOG"
build/host/labtool multi -q "$tmp/fake-run-lab" -- --results "$tmp/fakeres" -- slow.yaml b.yaml >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q slow "$FAKE_LOG" 2>/dev/null && break; sleep 0.1; done
sleep 0.3
kill -TERM "$pid"
wait "$pid"; rc=$?
if [ "$rc" = 130 ] && grep -q '^slow: TERM$' "$FAKE_LOG" && ! grep -q 'b.yaml' "$FAKE_LOG"; then
	echo "ok   labtool multi: SIGTERM reaches the run in flight, exit 130"
else
	echo "FAIL labtool multi: SIGTERM: exit $rc; runs: $(cat "$FAKE_LOG")"; fail=1
fi
exit $fail
