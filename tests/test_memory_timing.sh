#!/bin/bash
# Integration: --memory-timing count on dram-pmem (README, "Memory timing").
# One quick boot of tierbench chase with the plugin; then, from the run's
# files: every node's chase put >= 99 % of its LLC misses on the node it was
# bound to, its modeled cost per load is that node's HMAT read latency, and
# PMEM/DRAM is within 1 % of the topology's ratio (305/81); the plugin's
# address rule agreed with /proc/self/pagemap on every probe; meta.json and
# --print-qemu say count.  The expected figures come from the topology file,
# through labtool.  Then per-case accounting under icount (#21): two boots
# of a few latency cases (4k, scenario free): every case has its phase
# rows, one phase per timed repetition, and each case's counted cost and
# the misses and write-backs of the nodes that hold its pages agree between
# the boots within 0.1 %, the cost within 0.25 %, on a one-vCPU variant of
# the topology and on its two vCPUs (CPU 1 isolated by the kernel options
# --memory-timing adds).
# Then delay injection (experimental, #21 item
# 4): one quick --clock wall boot of the chase with --memory-timing delay:
# its calibration check, the dilation in meta.json, in the rows and in the
# report, a PMEM/DRAM guest-time ratio per load.  That ratio is host time
# on a shared host: single pairs measured 2.47 to 4.75 for HMAT's 3.77
# (load average 8-12), so here it is only bounded to say the delays
# happened and rank the nodes (PMEM/DRAM between 2 and 2 x HMAT's: without
# delays it is ~1, uncalibrated ~3.4); make bench-lab measures the issue's
# bar, the mean of 5 pairs within 10 %.  And one count boot of
# memside-cache.yaml: the memory-side caches simulated, their hits checked;
# one of a variant with a level 2 behind each cache: its checks and rows.
set -euo pipefail
cd "$(dirname "$0")/.."
topo=topologies/dram-pmem.yaml
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# run_of DIR: the run directory run-lab made under DIR (--results DIR)
run_of() { local r; r=$(ls -d "$1"/*/ | head -n 1); echo "${r%/}"; }

# --print-qemu: the plugin and its node ranges, from the topology; the
# address rule of the QEMU on PATH (README: doubled to 8.1, physical from
# 8.2 with the guest-physical ranges: node 0's GiB from 0, node 1's DIMM at
# the device-memory base, 4 GiB, plus its RAM offset, 1 GiB)
ranges='node=0:0x0:0x40000000\\,node=1:0x40000000:0x40000000'
case $(qemu-system-x86_64 --version | head -n 1) in
*"version 7."* | *"version 8.0"* | *"version 8.1"*) want="rule=doubled\\\\,$ranges\\\\,llc_" ;;
*) want="rule=physical\\\\,$ranges\\\\,gpa=0x0:0x0:0x40000000\\\\,gpa=0x140000000:0x40000000:0x40000000\\\\,llc_" ;;
esac
cmd=$(./run-lab.sh -q --print-qemu --memory-timing count "$topo")
grep -q -- "-plugin file=.*/tiermem\\.so\\\\,out=memtiming\\.txt\\\\,$want" <<<"$cmd" ||
	bad "--print-qemu has no -plugin with the rule and node ranges ($want): $cmd"
./run-lab.sh -q --print-qemu "$topo" | grep -q -- " -plugin " && bad "--print-qemu without --memory-timing has a -plugin"
# with the plugin, CPU 1 out of load balancing and interrupts on CPU 0 (the determinism above); without, not
grep -q -- 'irqaffinity=0\\ isolcpus=domain\\,managed_irq\\,1-1' <<<"$cmd" ||
	bad "--print-qemu --memory-timing count: no isolcpus/irqaffinity on the kernel command line: $cmd"
./run-lab.sh -q --print-qemu "$topo" | grep -q -- "isolcpus\\|irqaffinity" &&
	bad "--print-qemu without --memory-timing has isolcpus or irqaffinity"
# delay: the dilation and each node's HMAT read latency, from the topology
cmd=$(./run-lab.sh -q --print-qemu --memory-timing delay --clock wall "$topo")
grep -q -- '\\,delay=[0-9][0-9]*\\,lat=0:81\\,lat=1:305 ' <<<"$cmd " ||
	bad "--print-qemu --memory-timing delay has no delay= and lat= for both nodes: $cmd"
# a plan whose benchmarks mark no phase: a warning, the plan the same
warn=$("$LABTOOL" plan "$topo" --boot-id 1 --benches checks --memory-timing count 2>&1 >/dev/null)
grep -q '^labtool plan: warning: --memory-timing count: no benchmark of the plan marks a phase' <<<"$warn" ||
	bad "plan with --benches checks --memory-timing count: no warning ('$warn')"
warn=$("$LABTOOL" plan "$topo" --boot-id 1 --benches chase --memory-timing delay 2>&1 >/dev/null)
[ -z "$warn" ] || bad "plan with --benches chase --memory-timing delay warned: '$warn'"

# HMAT read latencies from CPU 0's node, per node, as the topology gives them
declare -A lat
while IFS=, read -r node _ mem rl _; do
	[ "$node" != node ] && [ "$mem" != 0 ] && lat[$node]=$rl
done < <("$LABTOOL" expect "$topo")
[ "${#lat[@]}" -ge 2 ] || { echo "$topo: want 2 memory nodes with HMAT, have ${#lat[@]}"; exit 1; }

rc=0
./run-lab.sh -q --results "$results" --profile quick --benches chase --memory-timing count "$topo" || rc=$?
run=$(run_of "$results")
[ "$rc" = 0 ] || { bad "run-lab exited $rc"; cat "$run"/boots/*.tap 2>/dev/null; }
[ -s "$run/raw/memtiming-1.txt" ] || bad "no plugin report raw/memtiming-1.txt"
[ "$(jq -r .memory_timing "$run/meta.json")" = count ] || bad "meta.json: memory_timing is not count"
grep -q '^not ok' "$run/boots/1.tap" && { bad "a check failed:"; grep '^not ok' "$run/boots/1.tap"; }
probes=$(grep -c '^ok [0-9]* - memtiming: probe' "$run/boots/1.tap" || true)
[ "$probes" -ge 8 ] || bad "$probes address probes checked, want 8 (4 per node)"

# value METRIC NODE-OF-CHASE: the chase row's value
value() { awk -F, -v m="$1" -v n="node:$2" '$2 == "chase" && $6 == "chase" && $4 == n && $7 == m { print $8 }' "$run/summary.csv"; }
for n in "${!lat[@]}"; do
	share=$(value "llc_miss_share_node$n" "$n")
	per_load=$(value access_ns_per_load "$n")
	echo "chase bound to node $n: miss share $share, $per_load ns per load (HMAT ${lat[$n]} ns)"
	awk -v s="$share" 'BEGIN { exit !(s != "" && s >= 0.99) }' ||
		bad "node $n: miss share on the bound node '$share', want >= 0.99"
	# every load misses once: the per-load cost is the node's latency, within 1 %
	awk -v v="$per_load" -v l="${lat[$n]}" 'BEGIN { exit !(v != "" && v / l > 0.99 && v / l < 1.01) }' ||
		bad "node $n: $per_load ns per load, want ${lat[$n]} within 1 %"
done
ratio=$(value access_ratio_vs_node0 1)
echo "PMEM/DRAM cost per load $ratio, HMAT ${lat[1]}/${lat[0]}"
awk -v r="$ratio" -v a="${lat[1]}" -v b="${lat[0]}" 'BEGIN { w = a / b; exit !(r != "" && r / w > 0.99 && r / w < 1.01) }' ||
	bad "PMEM/DRAM ratio '$ratio', want ${lat[1]}/${lat[0]} within 1 %"

# --- memory-side caches (memside-cache.yaml: a 256 MiB direct-mapped DRAM
# cache in front of each PMEM node): every check of the boot passes, among
# them each node's memory-side cache walk (chase, scenario msc: its second
# cycle served by the cache), and node 0's walk, its cache priced at 81 ns
# against the node's 305, costs less per load than its chase, whose cache
# started empty: measured 193.1 against 305.1 ns
mrun_dir=$results/msc
mkdir -p "$mrun_dir"
rc=0
./run-lab.sh -q --results "$mrun_dir" --profile quick --benches chase --memory-timing count \
	topologies/memside-cache.yaml >/dev/null || rc=$?
mrun=$(run_of "$mrun_dir")
[ "$rc" = 0 ] || bad "memside-cache run exited $rc"
grep '^not ok' "$mrun/boots/1.tap" && bad "memside-cache: a check failed (above)"
walks=$(grep -c '^ok [0-9]* - memtiming: chase bound to node [01], memory-side cache walk' "$mrun/boots/1.tap" || true)
[ "$walks" = 2 ] || bad "memside-cache: $walks memory-side cache walks checked ok, want 2"
mvalue() { awk -F, -v m="$1" -v n="node:$2" -v sc="$3" '$2 == "chase" && $6 == sc && $4 == n && $7 == m { print $8 }' "$mrun/summary.csv"; }
mw=$(mvalue access_ns_per_load 0 msc)
mc=$(mvalue access_ns_per_load 0 chase)
echo "memside-cache: node 0's cache walk $mw ns per load (hit share $(mvalue msc_hit_share_node0 0 msc)), its chase $mc"
awk -v w="$mw" -v c="$mc" 'BEGIN { exit !(w > 0 && c > 0 && w < 0.9 * c) }' ||
	bad "memside-cache: node 0's cache walk '$mw' ns per load, not under its chase's '$mc'"

# --- memory-side cache level 2: memside-cache.yaml with a 512 MiB level 2 behind
# each node's level 1 (no shipped topology has one): QEMU and the guest take
# it, the plugin simulates it (msc2=), every check of the boot passes, among
# them one per level 2, and the rows have its counts
sed -e 's/^name: memside-cache$/name: memside-cache-2level/' \
	-e '/write_latency_ns: 86, read_bandwidth: 100GB\/s, write_bandwidth: 57GB\/s}/a\      - {level: 2, size: 512M, associativity: complex, policy: write-back, line: 64}' \
	topologies/memside-cache.yaml > "$results/memside-cache-2level.yaml"
[ "$(grep -c 'level: 2' "$results/memside-cache-2level.yaml")" = 2 ] || bad "no level-2 variant of memside-cache.yaml"
l2_dir=$results/msc2
mkdir -p "$l2_dir"
rc=0
./run-lab.sh -q --results "$l2_dir" --profile quick --benches chase --memory-timing count \
	"$results/memside-cache-2level.yaml" >/dev/null || rc=$?
l2run=$(run_of "$l2_dir")
[ "$rc" = 0 ] || bad "memside-cache-2level run exited $rc"
grep '^not ok' "$l2run/boots/1.tap" && bad "memside-cache-2level: a check failed (above)"
l2checks=$(grep -c '^ok [0-9]* - memtiming: memory-side cache of node [01], level 2 ' "$l2run/boots/1.tap" || true)
[ "$l2checks" = 2 ] || bad "memside-cache-2level: $l2checks level-2 check lines ok, want 2"
l2rows=$(awk -F, '$2 == "chase" && $6 == "msc" && $7 ~ /^msc2_(hits|misses|writebacks)_node[01]$/' "$l2run/summary.csv" | wc -l)
[ "$l2rows" -ge 12 ] || bad "memside-cache-2level: $l2rows msc2_ rows of the msc walks, want 12"
# simulated, not only described: level 2 served some of node 0's walk
# (lines level 1 lost to a conflict, or the kernel's: 84, 92 and 114 in
# three runs of 2026-12-07); with level 2 described but not simulated the
# rows are there, its hits 0 (msc2_misses is level 1's misses less them,
# so it says nothing here)
awk -F, '$2 == "chase" && $6 == "msc" && $4 == "node:0" && $7 == "msc2_hits_node0" { h = $8 }
	END { exit !(h > 0) }' "$l2run/summary.csv" ||
	bad "memside-cache-2level: level 2 served nothing of node 0's walk: not simulated?"
echo "memside-cache-2level: $l2checks level-2 caches checked, node 0's walk $(awk -F, '$2 == "chase" && $6 == "msc" && $4 == "node:0" && $7 == "msc2_hits_node0" { print $8 }' "$l2run/summary.csv") level-2 hits"

# --- per-case counts, deterministic under icount: two boots of the same cases
# per_case_pair TOPOLOGY DIR COUNT_BAR COST_BAR: two icount boots of 7
# latency cases; every case has its phase rows, one phase per timed
# repetition, the misses and write-backs of each node that holds at least a
# tenth of a case's misses agree between the boots within COUNT_BAR (a
# fraction), its counted cost (access_cost_ns) within COST_BAR.
# Not the kernel's few thousand misses elsewhere, nor reads and writes (hits
# too): those moved by up to 40 % between two boots (README, "Memory timing").
cases_cmd="tierbench latency --profile quick --preferred 1 --label pmem --pagesizes 4k --scenarios free --policies bind,preferred-many,default --seed 1 --clock icount"
per_case_pair() {
	local topo_file=$1 dir=$2 count_bar=$3 cost_bar=$4 crun rc=0
	mkdir -p "$dir"
	./run-lab.sh -q --results "$dir" --boots 2 --memory-timing count --exec \
		"$cases_cmd" \
		"$topo_file" >/dev/null || rc=$?
	crun=$(run_of "$dir")
	[ "$rc" = 0 ] || { bad "$topo_file: per-case run exited $rc"; grep -h '^not ok' "$crun"/boots/*.tap; }
	for b in 1 2; do
		grep -q '^not ok' "$crun/boots/$b.tap" && { bad "$topo_file: boot $b: a check failed:"; grep '^not ok' "$crun/boots/$b.tap"; }
	done
	# every case that ran has its phase rows, one phase per timed repetition (quick: 2)
	awk -F, '$2 ~ /^latency/ && $7 ~ /^outcome_/ { key = $2 FS $3 FS $6 FS $11; ran[key] = 1 }
		$2 ~ /^latency/ && $7 == "mem_phases" { key = $2 FS $3 FS $6 FS $11; ph[key] = $8 }
		END { for (k in ran) if (ph[k] != 2) { print "case " k ": mem_phases \"" ph[k] "\", want 2"; bad = 1 }
		      exit bad }' "$crun/summary.csv" || bad "$topo_file: a case without its phases (above)"
	ncases=$(awk -F, '$2 ~ /^latency/ && $7 == "mem_phases"' "$crun/summary.csv" | wc -l)
	[ "$ncases" -ge 14 ] || bad "$topo_file: $ncases case-boots with phase rows, want 14 (7 cases x 2 boots)"
	compare_boots "$crun/summary.csv" "$count_bar" "$cost_bar" "$topo_file"
}
# compare_boots SUMMARY COUNT_BAR COST_BAR WHAT: per case, boot 1's figures
# against boot 2's (per_case_pair's rule)
compare_boots() {
	local count_bar=$2 cost_bar=$3 topo_file=$4
	awk -F, -v cbar="$count_bar" -v pbar="$cost_bar" -v topo="$topo_file" '$2 ~ /^latency/ && $7 == "llc_misses" { tot[$2 FS $3, $11] = $8 }
		$2 ~ /^latency/ && ($7 == "access_cost_ns" || $7 ~ /^llc_(misses|writebacks)_node[0-9]+$/) {
			key = $2 FS $3 FS $7; v[key, $11] = $8; keys[key] = 1; case_of[key] = $2 FS $3 }
		END { n = 0; wc = 0; wp = 0
			for (k in keys) { a = v[k, 1]; b = v[k, 2]; c = case_of[k]; cost = k ~ /access_cost_ns$/
				if (!cost && (a < tot[c, 1] / 10 || b < tot[c, 2] / 10)) continue
				n++; d = a > b ? a - b : b - a; m = a > b ? a : b; r = m > 0 ? d / m : 0
				if (cost && r > wp) wp = r
				if (!cost && r > wc) wc = r
				if (a == "" || b == "" || r > (cost ? pbar : cbar)) {
					split(k, f, FS); printf "%s %s %s: boot 1 %s, boot 2 %s\n", f[1], f[2], f[3], a, b; bad = 1 } }
			printf "%s: per-case figures compared between the boots: %d; largest difference of the counts %.4f %% (bar %.2f %%), of the cost %.4f %% (bar %.2f %%)\n",
				topo, n, 100 * wc, 100 * cbar, 100 * wp, 100 * pbar
			exit bad || n < 21 }' "$1" ||
		bad "$topo_file: per-case counts or costs differ between two icount boots by more than their bar (above), or too few compared"
}
# One vCPU and dram-pmem's two: the counts within issue 21's 0.1 %, the
# cost, which also prices the kernel's few stray misses on the node a case
# does not use (at PMEM's 305 ns), within 0.25 %.  Measured (README,
# "Memory timing", determinism), four such runs at once on the 2-core host:
# at most 0.025 % (one vCPU) and 0.023 % (two), counts or cost, boot 1
# against boot 2; in a CI run the counts 0.0004 % and 0.0015 %, the cost
# 0.037 % both; what is left comes from the disks' host-timed reads at
# /init.  Before the icount boots were made the same guest (fixed seed, RTC
# and disk, each step at a whole second, tsc=reliable): one vCPU up to
# 0.019 % / 0.080 %, two 0.106 % once under CI's load.
sed -e 's/^cpus: 2/cpus: 1/' -e 's/cpus: 0-1/cpus: 0/' -e 's/^name: dram-pmem$/name: dram-pmem-1cpu/' \
	"$topo" > "$results/dram-pmem-1cpu.yaml"
grep -q '^cpus: 1$' "$results/dram-pmem-1cpu.yaml" || bad "no one-vCPU variant of $topo"
per_case_pair "$results/dram-pmem-1cpu.yaml" "$results/cases1" 0.001 0.0025
per_case_pair "$topo" "$results/cases" 0.001 0.0025

# --- one boot id, the same guest: boot 1 of the one-vCPU pair again, in a
# run of its own.  Its inputs are the same (plan, QEMU command line: -seed
# of the id, the fixed RTC, tsc=reliable; the disks' bytes, unit-tested);
# its steps started at whole guest seconds (align); its per-case figures
# agree with the first boot 1's within the pair's bars.
again=$results/again
mkdir -p "$again"
rc=0
./run-lab.sh -q --results "$again" --boots 1 --memory-timing count --exec \
	"$cases_cmd" \
	"$results/dram-pmem-1cpu.yaml" >/dev/null || rc=$?
arun=$(run_of "$again")
frun=$(run_of "$results"/cases1)
[ "$rc" = 0 ] || bad "boot 1 again: exited $rc"
cmp -s "$frun/raw/plan-1.txt" "$arun/raw/plan-1.txt" || bad "boot 1 again: another plan"
[ "$(sed -e "s|$frun|RUN|g" -e 's|/tierlab-work\.[A-Za-z0-9]*/|/W/|g' "$frun/raw/qemu-1.cmd")" = \
  "$(sed -e "s|$arun|RUN|g" -e 's|/tierlab-work\.[A-Za-z0-9]*/|/W/|g' "$arun/raw/qemu-1.cmd")" ] ||
	bad "boot 1 again: another QEMU command line"
grep -q -- " -seed [0-9]* -rtc 'base=2025-01-01T00:00:00,clock=vm' " "$arun/raw/qemu-1.cmd" &&
	grep -q ' tsc=reliable' "$arun/raw/qemu-1.cmd" || bad "boot 1 again: no -seed, fixed -rtc or tsc=reliable in qemu-1.cmd"
grep -qx 'align 1' "$arun/raw/plan-1.txt" && grep -q 'STEP name=exec status=started timeout=[0-9]* aligned=[0-9]*$' "$arun/raw/channel-1.log" ||
	bad "boot 1 again: the plan's steps not aligned"
{ head -n 1 "$frun/summary.csv"; awk -F, -v OFS=, '$11 == 1' "$frun/summary.csv"; awk -F, -v OFS=, '$11 == 1 { $11 = 2; print }' "$arun/summary.csv"; } > "$results/again.csv"
compare_boots "$results/again.csv" 0.001 0.0025 "boot 1 of dram-pmem-1cpu, two runs"

# --- delay injection (experimental): one boot of the chase, wall clock
drun_dir=$results/delay
mkdir -p "$drun_dir"
rc=0
./run-lab.sh -q --results "$drun_dir" --profile quick --clock wall --benches chase --memory-timing delay "$topo" ||
	rc=$?
drun=$(run_of "$drun_dir")
[ "$rc" = 0 ] || { bad "delay run exited $rc"; grep -h '^not ok' "$drun"/boots/*.tap; }
[ "$(jq -r .memory_timing "$drun/meta.json")" = delay ] || bad "meta.json: memory_timing is not delay"
dil=$(jq -r .memory_timing_dilation "$drun/meta.json")
awk -v d="$dil" 'BEGIN { exit !(d + 0 >= 1) }' || bad "meta.json: memory_timing_dilation '$dil'"
grep -q '^ok [0-9]* - memtiming: delay (experimental): calibrated by phase' "$drun/boots/1.tap" ||
	bad "no passing calibration check in boots/1.tap"
dvalue() { awk -F, -v m="$1" -v n="node:$2" '$2 == "chase" && $6 == "chase" && $4 == n && $7 == m { print $8 }' "$drun/summary.csv"; }
for n in 0 1; do
	[ "$(dvalue delay_dilation "$n")" = "$dil" ] || bad "node $n's chase: delay_dilation '$(dvalue delay_dilation "$n")', meta.json $dil"
	awk -v c="$(dvalue delay_calib_ns_per_miss "$n")" 'BEGIN { exit !(c > 0) }' ||
		bad "node $n's chase: no delay_calib_ns_per_miss"
	awk -v g="$(dvalue guest_ns_per_load "$n")" 'BEGIN { exit !(g > 0) }' ||
		bad "node $n's chase: no guest_ns_per_load"
done
dratio=$(dvalue delay_ratio_vs_node0 1)
echo "delay: PMEM/DRAM guest time per load $dratio (HMAT ${lat[1]}/${lat[0]}), dilation $dil, calibration $(dvalue delay_calib_ns_per_miss 0) host ns per miss"
awk -v r="$dratio" -v a="${lat[1]}" -v b="${lat[0]}" 'BEGIN { w = a / b; exit !(r != "" && r > 2 && r < 2 * w) }' ||
	bad "delay: PMEM/DRAM ratio '$dratio', want between 2 and twice ${lat[1]}/${lat[0]} (one pair, host time)"
grep -q '^## Delay injection (experimental): the pointer chase only' "$drun/report.md" ||
	bad "report.md: no delay injection section"
grep -q "^> \*\*Experimental: delay injection (--memory-timing delay, dilation $dil)" "$drun/report.md" ||
	bad "report.md: no experimental caveat with the dilation"
grep -q "^Boot 1: node:1 .* ratio [0-9.]* against HMAT's 3.765 .*; dilation $dil, calibration [0-9.]* host ns per miss (summary.csv lines" "$drun/report.md" ||
	bad "report.md: no chase pair with its ratio, dilation and calibration"

# a report damaged after the fact is an error naming its line, not rows
cp "$run/raw/memtiming-1.txt" "$results/saved"
sed -i '5s/closed=1/closed=maybe/' "$run/raw/memtiming-1.txt"
out=$("$LABTOOL" collect "$run" 1 --topology dram-pmem --memory-timing count --topology-file "$topo" 2>&1) &&
	bad "collect of a damaged report exited 0"
grep -q 'memtiming-1.txt:5: phase: malformed' <<<"$out" || bad "damaged report: '$out'"
exit "$fail"
