#!/bin/bash
# make bench-lab: a benchmark of the lab itself.  Prints each figure with its
# target and writes them to results/lab-bench-<timestamp>/figures.csv (and
# figures.md for the README).  Figures are ratios measured side by side in
# this one run: these machines are shared and noisy, absolute times are not
# comparable across runs.
#
# env: BENCH_LAB_COLD=0 skips the cold kernel build (the 0.15x rebuild
#      target then has nothing to compare with); BENCH_LAB_BOOTS (default 5);
#      BENCH_LAB_PARTS, a subset of "rebuild boot parallel fidelity profile
#      scaling timing msc delay kconfig cold" (default: all but cold; cold is CI from
#      nothing, about 45 min); BENCH_LAB_MSC_BOOTS, the boots per variant of
#      the msc part (default 2); BENCH_LAB_DELAY_BOOTS, the chase pairs the
#      delay part measures (default 5); BENCH_LAB_TIMING_ARGS, the run the timing part times with
#      --memory-timing off and count (default: quick, the benches and a
#      workload whose cases mark phases);
#      BENCH_LAB_CLOCKS, the clocks fidelity measures (default "wall icount");
#      BENCH_LAB_PREALLOC_OFF=0 skips fidelity's prealloc-off wall run;
#      BENCH_LAB_BASE_KERNEL, a kernel directory of the cache (kernels/KEY,
#      built from an earlier kernel/lab.config) that the kconfig part boots
#      against the current one (without it the part says so and measures
#      nothing).
set -uo pipefail
cd "$(dirname "$0")/.."
lab=$PWD
out=results/lab-bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
boots=${BENCH_LAB_BOOTS:-5}
topo=topologies/dram-pmem.yaml
cache=${TIERLAB_CACHE:-/var/cache/tierlab}
parts=" ${BENCH_LAB_PARTS:-rebuild boot kconfig parallel fidelity profile scaling timing msc delay} "
[ -z "${BENCH_LAB_COLD_KEEP:-}" ] || trap - EXIT	# keep the cold clone and cache
part() { [[ $parts == *" $1 "* ]]; }

echo "figure,value,unit,target,verdict,note" > "$out/figures.csv.tmp"
# figure NAME VALUE UNIT TARGET(op number or -) NOTE
figure() {
	local verdict=-
	case $4 in
	'<='*) verdict=$(awk -v v="$2" -v t="${4#<=}" 'BEGIN { print (v <= t) ? "met" : "MISSED" }') ;;
	'>='*) verdict=$(awk -v v="$2" -v t="${4#>=}" 'BEGIN { print (v >= t) ? "met" : "MISSED" }') ;;
	'<'*) verdict=$(awk -v v="$2" -v t="${4#<}" 'BEGIN { print (v < t) ? "met" : "MISSED" }') ;;
	esac
	printf '%-44s %10s %-6s target %-6s %-7s %s\n' "$1" "$2" "$3" "$4" "$verdict" "$5"
	# names and notes are prose: keep commas out of the CSV's columns
	echo "${1//,/;},$2,$3,$4,$verdict,${5//,/;}" >> "$out/figures.csv.tmp"
}
secs() { local t0=$1; awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }'; }
# quotient A B DIGITS: A / B to DIGITS decimals, nan unless both are positive
quotient() { awk -v a="${1:-0}" -v b="${2:-0}" -v n="$3" 'BEGIN { if (a > 0 && b > 0) printf "%.*f", n, a / b; else print "nan" }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== lab benchmark ($(nproc) cores; TCG unless the KVM probe works)"
make -s all initramfs >/dev/null || exit 1
kernel/build.sh -q >/dev/null || exit 1

# --- 1. rebuilds ----------------------------------------------------------------
if part rebuild; then
t0=$(date +%s.%N)
make -s all initramfs >/dev/null && kernel/build.sh -q >/dev/null
figure "rebuild, nothing changed (make + kernel)" "$(secs "$t0")" s "<2" "cache key lookup, no kernel work"

# One patch changed: a private copy of kernel/ whose series gains a one-line
# patch to mm/mempolicy.c, built in the same (kept) build tree.
cp -r kernel "$tmp/kernel"
mkdir -p "$tmp/kernel/patches"
cat > "$tmp/kernel/patches/9999-bench-lab-touch.patch" <<'PATCH'
--- a/mm/mempolicy.c
+++ b/mm/mempolicy.c
@@ -1,2 +1,3 @@
 // SPDX-License-Identifier: GPL-2.0-only
+/* tierlab bench-lab: a one-line change to time an incremental rebuild */
 /*
PATCH
echo 9999-bench-lab-touch.patch >> "$tmp/kernel/series"
t0=$(date +%s.%N)
"$tmp/kernel/build.sh" -q >/dev/null || echo "bench-lab: the touched series did not build" >&2
incr=$(secs "$t0")
# Back to the real series: its kernel is cached, so this is a lookup.
kernel/build.sh -q >/dev/null
if [ "${BENCH_LAB_COLD:-1}" = 1 ]; then
	echo "   (cold build in a private cache: unpack + full build, several minutes)"
	t0=$(date +%s.%N)
	TIERLAB_CACHE=$tmp/cold kernel/build.sh -q >/dev/null || echo "bench-lab: cold build failed" >&2
	cold=$(secs "$t0")
	rm -rf "$tmp/cold"
	figure "cold kernel build (unpack + build)" "$cold" s - "-j$(nproc)"
	figure "one patch changed / cold build" "$(awk -v a="$incr" -v b="$cold" 'BEGIN { printf "%.3f", a / b }')" ratio "<=0.15" "incremental: $incr s"
else
	figure "one patch changed, rebuild" "$incr" s - "cold build skipped (BENCH_LAB_COLD=0)"
fi
fi

# bare_boot CMDFILE DIR [BZIMAGE]: the boot of CMDFILE (raw/qemu-N.cmd) run
# by hand with the base initramfs, an `exec true` plan and fresh reclaim
# disks (labtool disks: the boot's own were removed with it), with BZIMAGE
# as its kernel if given; prints its wall seconds, the console in
# DIR/console.  A QEMU that fails, or a guest that never reached /init, is
# an error here, not a figure.  The plan has no `align` line, under icount
# either: what is timed is the host's time to boot, not the guest's.
bare_boot() {
	local cmdfile=$1 d=$2 kernel=${3:-} t0 rc args=()
	mkdir -p "$d/root/lab"
	printf 'boot 1\nstep exec 60 true\n' > "$d/root/lab/plan"
	(cd "$d/root" && find . | cpio -o -H newc --quiet) | cat build/initramfs.cpio - > "$d/initrd"
	build/host/labtool disks "$d" || return 1
	# shellcheck disable=SC2046
	eval "set -- $(cat "$1")"
	while [ $# -gt 0 ]; do
		case $1 in
		-initrd) args+=(-initrd "$d/initrd"); shift ;;
		-kernel) args+=(-kernel "${kernel:-$2}"); shift ;;
		file:*console*) args+=("file:$d/console") ;;
		file:*channel*) args+=("file:$d/channel") ;;
		file=*swap.img,*) args+=("file=$d/swap.img,${1#*swap.img,}") ;;
		file=*fs.img,*) args+=("file=$d/fs.img,${1#*fs.img,}") ;;
		*) args+=("$1") ;;
		esac
		shift
	done
	t0=$(date +%s.%N)
	"${args[@]}" > "$d/qemu.out" 2>&1; rc=$?
	if [ "$rc" != 0 ] || ! grep -q "tierlab: /init reached" "$d/console" 2>/dev/null; then
		echo "bench-lab: bare boot of $cmdfile failed (QEMU exit $rc): $(tail -n 2 "$d/qemu.out" "$d/console" 2>&1 | tr '\n' ' ')" >&2
		return 1
	fi
	secs "$t0"
}

# --- 2. boot ----------------------------------------------------------------------
if part boot; then
# The lab's boots: --exec true, timed by run-lab itself and by the watchdog.
: > "$tmp/lab-walls"
for i in $(seq 1 "$boots"); do
	t0=$(date +%s.%N)
	./run-lab.sh -q --results "$tmp/r" --exec true "$topo" >/dev/null 2>&1
	secs "$t0" >> "$tmp/lab-walls"
done
for f in "$tmp"/r/*/raw/boot-1.timing; do sed -n 's/.* init_secs=\([0-9.]*\).*/\1/p' "$f"; done > "$tmp/init"
for f in "$tmp"/r/*/raw/boot-1.timing; do sed -n 's/.* secs=\([0-9.]*\) .*/\1/p' "$f"; done > "$tmp/qemu-walls"
accel=$(jq -r .accelerator "$(ls -d "$tmp"/r/* | head -1)/meta.json")
compression=$(sed -n 's/^CONFIG_KERNEL_\([A-Z0-9]*\)=y$/\1/p' "$(kernel/build.sh -q)/config" | head -1)
figure "QEMU start to /init (median of $boots, $accel)" "$(median < "$tmp/init")" s "<=3" "qboot, ${compression:-?} kernel, uncompressed initramfs"
figure "QEMU start to poweroff (median, $accel)" "$(median < "$tmp/qemu-walls")" s - "--exec true"
# The same kernel and initramfs booted bare: the command run-lab used.
cmdfile=$(ls "$tmp"/r/*/raw/qemu-1.cmd | head -1)
: > "$tmp/bare-walls"
for i in $(seq 1 "$boots"); do
	bare_boot "$cmdfile" "$tmp/bare-$i" >> "$tmp/bare-walls"
done
lab_med=$(median < "$tmp/lab-walls") bare_med=$(median < "$tmp/bare-walls")
[ "$(wc -l < "$tmp/bare-walls")" = "$boots" ] || bare_med=nan	# a bare boot failed (said above)
figure "bare QEMU boot, same kernel+initramfs (median)" "$bare_med" s - ""
figure "run-lab --exec true / bare QEMU boot" "$(awk -v a="$lab_med" -v b="$bare_med" 'BEGIN { printf "%.3f", a / b }')" ratio "<=1.2" "run-lab median $lab_med s"
fi

# --- kconfig: what the kernel configuration costs a boot --------------------------
# The current kernel against BENCH_LAB_BASE_KERNEL (one built from an earlier
# kernel/lab.config), the same QEMU command, initramfs and `exec true` plan,
# booted bare and interleaved, $boots each: wall seconds from QEMU start to
# power-off, and the guest's uptime at /init (under --clock icount, the
# default, instructions: the kernel's own boot work, host load aside).
if part kconfig; then
base=${BENCH_LAB_BASE_KERNEL:-}
cur=$(kernel/build.sh -q)
if [ -z "$base" ] || [ ! -r "$base/bzImage" ]; then
	figure "kernel config: boot, current / base" nan ratio - "BENCH_LAB_BASE_KERNEL unset or without bzImage: not measured"
else
	./run-lab.sh -q --results "$tmp/kc" --exec true "$topo" >/dev/null 2>&1
	kcmd=$(ls "$tmp"/kc/*/raw/qemu-1.cmd | head -1)
	for k in cur base; do : > "$tmp/kc-$k.wall"; : > "$tmp/kc-$k.init"; done
	for i in $(seq 1 "$boots"); do
		for k in cur base; do
			if [ "$k" = cur ]; then bz=$cur/bzImage; else bz=$base/bzImage; fi
			bare_boot "$kcmd" "$tmp/kc-$k-$i" "$bz" >> "$tmp/kc-$k.wall"
			sed -n 's/.*tierlab: \/init reached at \([0-9.]*\)s.*/\1/p' "$tmp/kc-$k-$i/console" >> "$tmp/kc-$k.init"
		done
	done
	note="$(basename "$cur") / $(basename "$base"), $boots interleaved bare boots each"
	for k in cur base; do
		[ "$(wc -l < "$tmp/kc-$k.wall")" = "$boots" ] || { echo nan > "$tmp/kc-$k.wall"; echo nan > "$tmp/kc-$k.init"; }
	done
	for k in cur base; do
		figure "kernel config: QEMU start to poweroff, $k" "$(median < "$tmp/kc-$k.wall")" s - "$note"
		figure "kernel config: guest uptime at /init, $k" "$(median < "$tmp/kc-$k.init")" s - "guest clock ($(jq -r .clock "$(ls -d "$tmp"/kc/* | head -1)/meta.json" 2>/dev/null))"
	done
	figure "kernel config: boot, current / base" "$(awk -v a="$(median < "$tmp/kc-cur.wall")" -v b="$(median < "$tmp/kc-base.wall")" 'BEGIN { printf "%.3f", a / b }')" ratio - "$note"
	figure "kernel config: bzImage, current / base" "$(awk -v a="$(stat -c %s "$cur/bzImage")" -v b="$(stat -c %s "$base/bzImage")" 'BEGIN { printf "%.3f", a / b }')" ratio - "$(stat -c %s "$cur/bzImage") / $(stat -c %s "$base/bzImage") bytes"
fi
fi

# --- 3. parallel boots --------------------------------------------------------------
if part parallel; then
work='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
for j in 1 2; do
	t0=$(date +%s.%N)
	./run-lab.sh -q --results "$tmp/j$j" -j "$j" --boots 4 --exec "$work" "$topo" >/dev/null 2>&1
	eval "wall_j$j=$(secs "$t0")"
done
figure "4 boots, -j1 wall" "$wall_j1" s - "each boot: a CPU-bound shell loop"
figure "4 boots, -j2 wall" "$wall_j2" s - ""
figure "throughput -j2 / -j1" "$(awk -v a="$wall_j1" -v b="$wall_j2" 'BEGIN { printf "%.3f", a / b }')" ratio ">=1.6" "$(nproc) host cores, 2 vCPUs per guest"
fi

# --- 4. fidelity ----------------------------------------------------------------------
# The same quick latency run under each clock (BENCH_LAB_CLOCKS, default
# "wall icount"), one after the other: the CoV over boots of bind's 4k/free
# p50, and the harness's overhead.  Under icount a boot's counts are exact
# (README, "Clocks"), so its CoV is what the guest's own layout moves;
# under wall the host's time adds TCG's two modes.  BENCH_LAB_PREALLOC_OFF=0
# skips the wall run without guest-memory preallocation.
if part fidelity; then
fid() {	# RESULTS-DIR CLOCK [RUN-LAB OPTION...] -> prints CoV of p50 over boots, harness overhead, ok boots
	./run-lab.sh -q --results "$1" --clock "$2" --boots "$boots" --profile quick --benches latency \
		"${@:3}" "$topo" >/dev/null 2>&1
	local sum
	sum=$(ls -d "$1"/*/ | head -1)summary.csv
	awk -F, '$2 == "latency" && $3 == "bind" && $5 == "4k" && $6 == "free" && $7 == "p50" && $12 == "ok" { print $8 }' "$sum" |
		awk '{ s += $1; ss += $1 * $1; n++ } END { if (!n) { print "nan"; exit } m = s / n; printf "%.4f\n", sqrt((ss / n - m * m) > 0 ? ss / n - m * m : 0) / m }'
	awk -F, '$2 == "latency" && $5 == "4k" && $6 == "free" && $7 == "harness_overhead_ratio" && $12 == "ok" { print $8 }' "$sum" | median
	awk -F, '$2 == "latency" && $3 == "bind" && $5 == "4k" && $6 == "free" && $7 == "p50" && $12 == "ok"' "$sum" | wc -l
	# bind's luck is not every policy's: the largest CoV of any policy, and whose
	awk -F, '$2 == "latency" && $5 == "4k" && $6 == "free" && $7 == "p50" && $12 == "ok" {
			s[$3] += $8; ss[$3] += $8 * $8; n[$3]++ }
		END { w = -1; for (p in s) { m = s[p] / n[p]; v = ss[p] / n[p] - m * m
			c = sqrt(v > 0 ? v : 0) / m; if (c > w) { w = c; wp = p } }
			if (w < 0) print "nan -"; else printf "%.4f %s\n", w, wp }' "$sum"
}
for clock in ${BENCH_LAB_CLOCKS:-wall icount}; do
	unit=ns
	[ "$clock" = wall ] || unit=insn
	t0=$(date +%s.%N)
	mapfile -t f < <(fid "$tmp/fid-$clock" "$clock")
	took=$(secs "$t0")
	figure "harness overhead, --clock $clock (timed / untimed loop, median)" "${f[1]:-nan}" ratio "<=1.05" "latency 4k free, all policies"
	figure "CoV of p50 fault latency over $boots boots, --clock $clock" "${f[0]:-nan}" ratio "<=0.05" \
		"bind 4k free ($unit), ${f[2]:-0} ok boots, quick latency run $took s"
	figure "largest CoV of any policy's p50, --clock $clock" "${f[3]%% *}" ratio - \
		"4k free, policy ${f[3]#* }"
done
if [ "${BENCH_LAB_PREALLOC_OFF:-1}" = 1 ]; then
	mapfile -t off < <(fid "$tmp/fid-off" wall --no-prealloc)
	figure "CoV of p50 fault latency, --clock wall, prealloc off" "${off[0]:-nan}" ratio - "why prealloc is on"
fi
fi

# --- 4b. the default run under each clock ---------------------------------------------
# README's first command (`./run-lab.sh`: the default topology and profile,
# one boot) timed under --clock icount (the default) and --clock wall, one
# after the other: what the deterministic clock costs a user in host time.
if part profile; then
for clock in icount wall; do
	t0=$(date +%s.%N)
	./run-lab.sh -q --results "$tmp/profile-$clock" --clock "$clock" >/dev/null 2>&1
	eval "rc_$clock=$?"
	eval "run_$clock=$(secs "$t0")"
done
note="default topology and profile, 1 boot, exit $rc_icount/$rc_wall"
# a run that failed has no time worth comparing
[ "$rc_icount" = 0 ] || run_icount=nan
[ "$rc_wall" = 0 ] || run_wall=nan
figure "default run, --clock icount" "$run_icount" s - "$note"
figure "default run, --clock wall" "$run_wall" s - "$note"
figure "default run: icount / wall" "$(awk -v a="$run_icount" -v b="$run_wall" 'BEGIN { if (a == "nan" || b == "nan" || b <= 0) print "nan"; else printf "%.2f", a / b }')" ratio - \
	"host seconds; TCG both"
fi

# --- 5. scaling ---------------------------------------------------------------------------
if part scaling; then
# Wall time of a quick run against guest memory and node count, from
# topologies made for the purpose.
scale_topo() {	# NODES MEM
	{
		echo "name: scale-$1n-$2"
		echo "description: bench-lab scaling point"
		echo "cpus: 2"
		echo "nodes:"
		echo "  - { id: 0, kind: dram, memory: $2, cpus: 0-1, read_latency_ns: 80, write_latency_ns: 80, read_bandwidth: 100GB/s, write_bandwidth: 60GB/s }"
		for n in $(seq 1 $(($1 - 1))); do
			echo "  - { id: $n, kind: pmem, memory: $2, read_latency_ns: 300, write_latency_ns: 100, read_bandwidth: 40GB/s, write_bandwidth: 14GB/s }"
		done
	} > "$tmp/scale-$1n-$2.yaml"
	echo "$tmp/scale-$1n-$2.yaml"
}
for point in "2 512M" "2 1G" "2 2G" "4 1G"; do
	set -- $point
	t=$(scale_topo "$1" "$2")
	t0=$(date +%s.%N)
	./run-lab.sh -q --results "$tmp/scale" --profile quick "$t" >/dev/null 2>&1
	figure "quick run, $1 nodes x $2" "$(secs "$t0")" s - "wall time of the whole run"
done
fi

# --- 6. memory timing -------------------------------------------------------------------
# The cost of --memory-timing count in host seconds: the same quick run
# (one boot, icount, so the guest does the same work in both) with the
# plugin off and counting, one after the other.  The runs are kept in the
# output directory (timing-off/, timing-count/), so the count run's access
# rows and report can be read with the figures.
if part timing; then
read -r -a targs <<<"${BENCH_LAB_TIMING_ARGS:---profile quick --benches latency,fallback,model --workloads stress-vm,fio-tmpfs-mmap}"
for mode in off count; do
	t0=$(date +%s.%N)
	./run-lab.sh -q --results "$out/timing-$mode" --memory-timing "$mode" "${targs[@]}" "$topo" >/dev/null 2>&1
	eval "rc_$mode=$?"
	eval "run_$mode=$(secs "$t0")"
	t=$(ls "$out/timing-$mode"/*/raw/boot-1.timing 2>/dev/null | head -1)
	eval "qemu_$mode=$(sed -n 's/.* secs=\([0-9.]*\) .*/\1/p' "${t:-/dev/null}" | head -1)"
done
note="${targs[*]}, dram-pmem, 1 boot each, exit $rc_off/$rc_count"
figure "run, --memory-timing off" "$run_off" s - "$note"
figure "run, --memory-timing count" "$run_count" s - "$note"
figure "QEMU start to poweroff, --memory-timing off" "${qemu_off:-nan}" s - "raw/boot-1.timing"
figure "QEMU start to poweroff, --memory-timing count" "${qemu_count:-nan}" s - "raw/boot-1.timing"
figure "memory timing: count / off, whole run" "$(awk -v a="$run_count" -v b="$run_off" 'BEGIN { printf "%.2f", a / b }')" ratio - \
	"host seconds; the guest's instructions are the same (icount)"
figure "memory timing: count / off, QEMU" "$(awk -v a="${qemu_count:-0}" -v b="${qemu_off:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }')" ratio - \
	"start to poweroff"
fi

# --- 6a. memory-side caches: what simulating them costs ---------------------------------
# memside-cache.yaml (a 256 MiB direct-mapped cache in front of each of two
# PMEM nodes), quick --benches chase (its chase and memory-side cache walks
# on both nodes), icount, so the guest runs the same instructions in every
# variant: the plugin off; counting with the caches described but not
# simulated (TIERLAB_MEMTIMING_MSC_SIM=0: msc_sim=0, every LLC miss the
# memory's; its boots' cache checks fail, as they should); counting with
# them simulated.  Each variant BENCH_LAB_MSC_BOOTS boots, one after the
# other (-j1); each boot's raw/boot-N.timing, mean of the variant's boots.
# The runs stay in the output directory (msc-*/).
# boot_secs RESULTS [init]: the mean over the run's boots of raw/boot-N.timing's
# QEMU start to power-off, or with "init" of /init to power-off (secs - init_secs)
boot_secs() {
	cat "$1"/*/raw/boot-*.timing 2>/dev/null |
		sed -n 's/.* secs=\([0-9.]*\) init_secs=\([0-9.]*\).*/\1 \2/p' |
		awk -v init="${2:-}" '{ s += init ? $1 - $2 : $1; n++ } END { if (n) printf "%.3f", s / n }'
}
if part msc; then
mboots=${BENCH_LAB_MSC_BOOTS:-2}
mtopo=topologies/memside-cache.yaml
for v in off nosim sim; do
	mode=count sim=1
	[ "$v" = off ] && mode=off
	[ "$v" = nosim ] && sim=0
	t0=$(date +%s.%N)
	TIERLAB_MEMTIMING_MSC_SIM=$sim ./run-lab.sh -q -j1 --results "$out/msc-$v" --profile quick --benches chase \
		--boots "$mboots" --memory-timing "$mode" "$mtopo" >/dev/null 2>&1
	eval "mrc_$v=$?"
	eval "mrun_$v=$(secs "$t0")"
	eval "mqemu_$v=$(boot_secs "$out/msc-$v")"
	eval "minit_$v=$(boot_secs "$out/msc-$v" init)"
	eval "mbad_$v=$(cat "$out/msc-$v"/*/boots/*.tap 2>/dev/null | grep -c '^not ok' || true)"
done
# the simulated run's node-0 walk: its hits, so the figures say the caches were at work
mcsv=$(ls "$out"/msc-sim/*/summary.csv 2>/dev/null | head -1)
mhits=$(awk -F, '$2 == "chase" && $6 == "msc" && $4 == "node:0" && $7 == "msc_hits_node0" { s += $8; n++ }
	END { if (n) printf "%.0f", s / n }' "${mcsv:-/dev/null}")
note="memside-cache.yaml, quick --benches chase, icount, $mboots boots each; exit $mrc_off/$mrc_nosim/$mrc_sim; not-ok checks $mbad_off/$mbad_nosim/$mbad_sim"
figure "msc: QEMU start to poweroff, off / no sim / sim" "${mqemu_off:-nan}/${mqemu_nosim:-nan}/${mqemu_sim:-nan}" s - "$note"
figure "msc: /init to poweroff, off / no sim / sim" "${minit_off:-nan}/${minit_nosim:-nan}/${minit_sim:-nan}" s - \
	"raw/boot-N.timing, secs - init_secs: the guest's steps, the chase's phases among them"
figure "msc: simulated / not, /init to poweroff" "$(quotient "${minit_sim:-}" "${minit_nosim:-}" 3)" ratio - \
	"what simulating the caches adds to counting; node 0's walk ${mhits:-?} cache hits (mean of the boots)"
figure "msc: simulated / not, QEMU" "$(quotient "${mqemu_sim:-}" "${mqemu_nosim:-}" 3)" ratio - \
	"QEMU start to poweroff"
figure "msc: count (sim) / off, /init to poweroff" "$(quotient "${minit_sim:-}" "${minit_off:-}" 3)" ratio - \
	"the plugin's whole cost on this run"
figure "msc: run, off / no sim / sim" "$mrun_off/$mrun_nosim/$mrun_sim" s - "whole run-lab wall (build, collect, report included)"
fi

# --- 6b. delay injection (experimental) ---------------------------------------------------
# --memory-timing delay on the chase (README, "Delay injection"): one boot per
# chase pair, --clock wall (delays are host time), quick; each boot's PMEM/DRAM
# guest time per load against HMAT's ratio, the dilation and the calibration,
# then the mean over the pairs (issue 21's bar: within 10 %).  Its cost: the
# same chase run with the plugin off and counting, one boot each.  The runs
# stay in the output directory (delay-*/).
if part delay; then
dboots=${BENCH_LAB_DELAY_BOOTS:-5}
for mode in off count delay; do
	n=1
	[ "$mode" = delay ] && n=$dboots
	t0=$(date +%s.%N)
	./run-lab.sh -q --results "$out/delay-$mode" --profile quick --clock wall --benches chase \
		--boots "$n" --memory-timing "$mode" "$topo" >/dev/null 2>&1
	eval "drc_$mode=$?"
	eval "drun_$mode=$(secs "$t0")"
	# each boot's raw/boot-N.timing, mean of the run's boots: QEMU start to
	# power-off, and /init to power-off (the guest's steps, where the phases are)
	eval "dqemu_$mode=$(boot_secs "$out/delay-$mode")"
	eval "dinit_$mode=$(boot_secs "$out/delay-$mode" init)"
done
csv=$(ls "$out"/delay-delay/*/summary.csv 2>/dev/null | head -1)
pairs=0
if [ -n "$csv" ]; then
	# per boot: the ratio, HMAT's, the dilation, the calibration
	while IFS=, read -r b ratio hmat dil cal; do
		pairs=$((pairs + 1))
		figure "delay: chase PMEM/DRAM, boot $b" "$ratio" ratio - \
			"HMAT $hmat; dilation $dil; calibration $cal host ns per miss"
	done < <(awk -F, '$2 == "chase" && $6 == "chase" && $4 == "node:1" && $12 == "ok" {
			if ($7 == "delay_ratio_vs_node0") r[$11] = $8
			if ($7 == "hmat_ratio_vs_node0") h[$11] = $8
			if ($7 == "delay_dilation") d[$11] = $8
			if ($7 == "delay_calib_ns_per_miss") c[$11] = $8 }
		END { for (b in r) print b "," r[b] "," h[b] "," d[b] "," c[b] }' "$csv" | sort -n)
	read -r mean hmat worst < <(awk -F, '$2 == "chase" && $6 == "chase" && $4 == "node:1" && $12 == "ok" {
			if ($7 == "delay_ratio_vs_node0") { s += $8; n++; r[n] = $8 }
			if ($7 == "hmat_ratio_vs_node0") h = $8 }
		END { if (!n || !h) { print "nan nan nan"; exit }
		      for (i = 1; i <= n; i++) { e = r[i] / h - 1; if (e < 0) e = -e; if (e > w) w = e }
		      printf "%.4f %.4f %.2f\n", s / n, h, 100 * w }' "$csv")
	figure "delay: chase PMEM/DRAM, mean of $pairs pairs" "$mean" ratio - "HMAT $hmat; the farthest pair $worst % off"
	figure "delay: mean ratio / HMAT's, off by" "$(awk -v m="$mean" -v h="$hmat" 'BEGIN { e = m / h - 1; if (e < 0) e = -e; printf "%.2f", 100 * e }')" % "<=10" \
		"$pairs pairs (issue 21: within 10 %), dilation $(jq -r .memory_timing_dilation "$(dirname "$csv")/meta.json")"
fi
note="quick --benches chase --clock wall, dram-pmem; exit $drc_off/$drc_count/$drc_delay"
figure "chase run, --memory-timing off" "$drun_off" s - "$note, 1 boot"
figure "chase run, --memory-timing count" "$drun_count" s - "$note, 1 boot"
figure "chase run, --memory-timing delay, per boot" "$(awk -v a="$drun_delay" -v n="$dboots" 'BEGIN { printf "%.3f", a / n }')" s - "$note, $dboots boots"
figure "QEMU start to poweroff, chase, off / count / delay" "${dqemu_off:-nan}/${dqemu_count:-nan}/${dqemu_delay:-nan}" s - \
	"raw/boot-N.timing; delay: mean of its $dboots boots"
# the walk itself, on the guest's clock: what the delays add to a load (count: TCG's own cost)
ccsv=$(ls "$out"/delay-count/*/summary.csv 2>/dev/null | head -1)
for n in 0 1; do
	c=$(awk -F, -v n="node:$n" '$2 == "chase" && $6 == "chase" && $4 == n && $7 == "guest_ns_per_load" { print $8 }' "${ccsv:-/dev/null}")
	d=$(awk -F, -v n="node:$n" '$2 == "chase" && $6 == "chase" && $4 == n && $7 == "guest_ns_per_load" { s += $8; k++ }
		END { if (k) printf "%.1f", s / k }' "${csv:-/dev/null}")
	figure "chase walk, node $n: delay / count per load" "$(quotient "$d" "$c" 2)" ratio - \
		"guest clock: ${d:-?} ns per load with delays (mean of the boots) / ${c:-?} counted only"
done
figure "/init to poweroff, chase, off / count / delay" "${dinit_off:-nan}/${dinit_count:-nan}/${dinit_delay:-nan}" s - \
	"raw/boot-N.timing, secs - init_secs; delay: mean of its $dboots boots"
figure "memory timing: delay / off, QEMU per boot" "$(quotient "${dqemu_delay:-}" "${dqemu_off:-}" 2)" ratio - \
	"raw/boot-N.timing, QEMU start to power-off (not the run's build, collect and report); delays are meant to slow the phases"
figure "memory timing: delay / off, /init to poweroff per boot" "$(quotient "${dinit_delay:-}" "${dinit_off:-}" 2)" ratio - \
	"raw/boot-N.timing: the guest's steps, without the boot to /init that the plugin hardly slows and the host's load moves most"
fi

# --- 7. CI from nothing -----------------------------------------------------------------
if part cold; then
# .ci/run in a fresh clone of the committed tree with an empty TIERLAB_CACHE:
# every kernel, the compiler cache and the initramfs are built from nothing,
# as on a new machine (only the Debian packages are already installed: ~46 s
# on a new machine).  The per-flavor compiler-cache hits come from each
# kernel's info file and the variants' lines in the clone's test logs.
clone=$tmp/cold-clone cold=$tmp/cold-cache
git clone -q "$lab" "$clone" || exit 1
(cd "$clone" && TIERLAB_CACHE=$cold CI=true bash .ci/run) > "$out/cold-ci.log" 2>&1
rc=$?
line=$(grep '^ci: make test ' "$out/cold-ci.log" | tail -n 1)
t_test=$(sed -n 's/^ci: make test \([0-9]*\)s.*/\1/p' <<<"$line")
t_kern=$(sed -n 's/.*make test-kernels \([0-9]*\)s.*/\1/p' <<<"$line")
t_all=$(sed -n 's/.*total \([0-9]*\)s$/\1/p' <<<"$line")
note="fresh clone, empty TIERLAB_CACHE, exit $rc; log $out/cold-ci.log"
figure "cold make test" "${t_test:-?}" s "<=1200" "$note"
figure "cold make test-kernels" "${t_kern:-?}" s - "$note"
figure "cold .ci/run total" "${t_all:-?}" s "<=2700" "$note"
for info in "$cold"/kernels/*/info; do
	[ -r "$info" ] || continue
	k=$(basename "$(dirname "$info")"); k=${k%-*}
	figure "kernel $k: build; ccache" "$(sed -n 's/^build_secs=//p' "$info")" s - \
		"$(sed -n 's/^ccache=//p' "$info")"
done
sed -n 's/^\(notrace\|nohugetlb\|nonuma\): ok, vmlinux built in \([0-9]*\) s .*ccache: \(.*\))$/\1 \2 \3/p' \
	"$clone"/build/test_kernel_configs.log 2>/dev/null |
	while read -r v t rest; do figure "variant $v: vmlinux; ccache" "$t" s - "$rest"; done
fi

mv "$out/figures.csv.tmp" "$out/figures.csv"
{
	echo "| figure | value | unit | target | verdict | note |"
	echo "|---|---|---|---|---|---|"
	tail -n +2 "$out/figures.csv" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
} > "$out/figures.md"
echo "figures: $out/figures.csv (README table: $out/figures.md)"
