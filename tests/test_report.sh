#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# labtool report on the fixture run: plots exist, are valid SVG/PNG and hold
# the expected series; report.html/.md list every policy; regenerating gives
# byte-identical files; bad input fails with file:line and writes nothing;
# headless Chromium loads the page with every figure decoded; the first
# screen is the verdict, the fill curve, the OOM matrix, then the tables,
# and at 1280x800 the fill curve starts inside the window; the model after
# the fill on a format-2 run with per-node fill shares
# (tests/fixtures/make-run-fill.sh), with and without a memory-side cache.
# Exit 0 pass, 1 fail, 77 skip (what is missing is named).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LABTOOL=${LABTOOL:-$ROOT/build/host/labtool}
FIXTURE=$ROOT/tests/fixtures/run-small
# the scripts of this tree, whichever labtool binary is tested
TIERLAB_PLOTS=${TIERLAB_PLOTS:-$ROOT/plots}
export TIERLAB_PLOTS
fails=0
n=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
check() { # check "description" command...
	desc=$1; shift
	if "$@" >/dev/null 2>&1; then ok "$desc"; else not_ok "$desc"; fi
}

[ -x "$LABTOOL" ] || { echo "SKIP: $LABTOOL not built (make host)"; exit 77; }
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot missing (apt-get install gnuplot-nox)"; exit 77; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUN=$TMP/a/dram-pmem-20261202-215445
mkdir -p "$TMP/a" && cp -r "$FIXTURE" "$RUN"

# --- the report ---
if "$LABTOOL" report "$RUN" >"$TMP/out" 2>"$TMP/err"; then
	ok "labtool report exits 0"
else
	not_ok "labtool report exits 0"; sed 's/^/# /' "$TMP/err"
	exit 1
fi
check "report.html written" test -s "$RUN/report.html"
check "report.md written" test -s "$RUN/report.md"
check "no temporary files left" sh -c "! ls -a '$RUN' | grep -q -e '\.tmp-' -e '\.plots\.'"

# --- plots: every kind, valid SVG and PNG ---
for kind in latency latency-median latency-cdf latency-task latency-task-median fallback-fill \
	    placement oom-matrix model-cost; do
	set -- "$RUN"/plots/$kind-*.svg "$RUN"/plots/$kind.svg
	found=0
	for f; do [ -f "$f" ] && found=1; done
	[ $found = 1 ] && ok "figure kind $kind produced" || not_ok "figure kind $kind produced"
done
svg_ok=1
png_ok=1
for svg in "$RUN"/plots/*.svg; do
	png=${svg%.svg}.png
	[ -s "$svg" ] || { svg_ok=0; echo "# empty: $svg"; }
	if command -v xmllint >/dev/null; then
		xmllint --noout "$svg" 2>/dev/null || { svg_ok=0; echo "# invalid XML: $svg"; }
	else
		grep -q '<svg' "$svg" && grep -q '</svg>' "$svg" || { svg_ok=0; echo "# not SVG: $svg"; }
	fi
	[ -s "$png" ] || { png_ok=0; echo "# missing: $png"; continue; }
	magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
	[ "$magic" = 89504e470d0a1a0a ] || { png_ok=0; echo "# bad PNG magic: $png"; }
	if command -v file >/dev/null; then
		file "$png" | grep -q 'PNG image data, 960 x 540' || { png_ok=0; echo "# file(1): $(file "$png")"; }
	fi
done
[ $svg_ok = 1 ] && ok "every SVG is non-empty, well-formed XML" || not_ok "every SVG is non-empty, well-formed XML"
[ $png_ok = 1 ] && ok "every PNG is a 960x540 PNG" || not_ok "every PNG is a 960x540 PNG"
check "data files beside the plots" test -s "$RUN/plots/data/latency-4k-free.dat"

# --- expected series: tierbench's real names reach the figures ---
for label in "bind pmem:1" "preferred pmem:1" "preferred-many pmem:1" \
	     "weighted-interleave pmem:1" "interleave pmem:1" "default pmem:1"; do
	check "latency plot has series '$label'" grep -qF ">$label<" "$RUN/plots/latency-4k-free.svg"
	check "set_mempolicy latency plot has series '$label'" grep -qF ">$label<" "$RUN/plots/latency-task-4k-free.svg"
	check "CDF from boots/1.hist has series '$label'" grep -qF ">$label (2 reps, 8192 faults)<" "$RUN/plots/latency-cdf-4k-free.svg"
done
check "CDF data pooled from the HIST buckets (bind's first bucket)" \
	grep -q '^9984 0.0610' "$RUN/plots/data/latency-cdf-4k-free.dat"
check "CDF reaches 100%" grep -q ' 100 $' "$RUN/plots/data/latency-cdf-4k-free.dat"
check "p99_9 plotted as p99.9" grep -q '^"p99.9" 589824 ' "$RUN/plots/data/latency-4k-free.dat"
check "median figure: one boot, no interval, its value" grep -q '^"bind pmem:1" 10752 ? ? 10752 $' "$RUN/plots/data/latency-median-4k-free.dat"
for label in "bind pmem:1 (oom_killed)" "preferred pmem:1" "preferred-many pmem:1" "default pmem:1"; do
	check "fill curve has series '$label'" grep -qF ">$label<" "$RUN/plots/fallback-fill-4k.svg"
done
check "fill curve x comes from fill@<MiB> (preferred-many's drop at 912)" \
	grep -q '^912 ? 0 68.1396 100 $' "$RUN/plots/data/fallback-fill-4k.dat"
check "placement plot has node segments" grep -qF ">node 1 (tier 31)<" "$RUN/plots/placement-4k-full.svg"
check "OOM matrix shows oom_killed with MiB" grep -qF ">oom_killed, 884.7/1257 MiB<" "$RUN/plots/oom-matrix.svg"
check "OOM matrix shows sigbus" grep -qF ">sigbus, 10/12 MiB<" "$RUN/plots/oom-matrix.svg"
check "titles name topology and kernel" grep -qF "dram-pmem, kernel 6.12.118-tierlab-e3b0c442" "$RUN/plots/model-cost.svg"

# --- the report: every policy, the real figures in the headline ---
policies=$(awk -F, 'NR > 1 && $12 == "ok" { print $3 }' "$FIXTURE/summary.csv" | sort -u | grep -vx -- '-')
for p in $policies; do
	check "report.html lists policy $p" grep -q "<td>$p\( (reference)\)\?</td>" "$RUN/report.html"
	check "report.md lists policy $p" grep -q "^|$p\( (reference)\)\? |" "$RUN/report.md"
done
check "no policy '-' in the headline" sh -c "! grep -q '^|- |' '$RUN/report.md'"
check "title names topology and kernel" grep -q '<h1>tierlab: dram-pmem, kernel 6.12.118-tierlab-e3b0c442</h1>' "$RUN/report.html"
check "headline: bind's p50 of its one boot, mbind" grep -qF '|bind |pmem:1 |10752 \[1 boot\] |16384 \[1 boot\] |46080 |100 |' "$RUN/report.md"
check "headline: both ways of setting the policy are labelled" grep -qF 'mbind() (4k, free) |p50, ns \[interval\], set\_mempolicy() |' "$RUN/report.md"
check "headline: bind's OOM outcomes" grep -qF '4k oom\_killed at 884.7 of 1257 MiB (memory-policy constraint); thp setup\_error at 0 of 1257 MiB; 2m sigbus at 10 of 12 MiB |' "$RUN/report.md"
check "headline: fill curve per policy" grep -qF 'all there until 896 MiB (906.9 MiB there in all)' "$RUN/report.md"
check "headline: bind never fell back, killed" grep -qF 'never fell back (896 MiB there); oom\_killed at 897.3 MiB' "$RUN/report.md"
check "headline: modeled cost" grep -qF '|305 |39400 (parallel bound 39400) |' "$RUN/report.md"
# 50/50 on 100000 and 39400 MB/s: serial 1 / (0.5/100000 + 0.5/39400) = 56528,
# bound min(2 * 100000, 2 * 39400) = 78800; not the arithmetic 69700
check "headline: interleave's modeled bandwidth is the time-weighted figure, its bound beside it" \
	sh -c "grep '^|interleave (reference) |pmem:1 |' '$RUN/report.md' | grep -qF '|193 |56528 (parallel bound 78800) |'"
check "headline: the model columns are titled as a model" \
	grep -qF '|model: read latency, ns (page-weighted) |model: read bandwidth, MB/s (serial, time-weighted; parallel bound) |' "$RUN/report.md"
check "model figure data: serial and parallel bound" \
	grep -q '^"interleave pmem:1" 193 56528 78800 $' "$RUN/plots/data/model-cost.dat"
check "model figure titled as a model" grep -qF 'model: read bandwidth (serial, time-weighted)' "$RUN/plots/model-cost.svg"
check "model figure shows the parallel bound" grep -qF '>parallel bound<' "$RUN/plots/model-cost.svg"
check "one boot: no interval over boots, no claim" grep -qF 'Latencies come from one boot: there is no interval over boots and no difference is claimed (run --boots 6 for 95% intervals).' "$RUN/report.md"
check "recommendation claims nothing higher or lower" sh -c "! grep -q -e 'is higher than' -e 'is lower than' '$RUN/report.md'"
# Every policy's thp OOM case of this run is setup_error (THP unavailable in
# that guest): the machine's, named, and it decides nothing (#17).
check "recommendation: an OOM case no policy could set up is named" grep -qF 'The OOM test thp could not be set up for any policy (setup\_error in every case)' "$RUN/report.md"
check "recommendation names the tied policies" grep -qF '<strong>preferred pmem:1</strong> and <strong>preferred-many pmem:1</strong> are not distinguishable by placement: 895.7 MiB' "$RUN/report.html"
check "recommendation says why not bind" grep -qF 'bind pmem:1 is out: oom\_killed (4k) at 884.7 of 1257 MiB asked, sigbus (2m) at 10 of 12 MiB asked in the OOM tests' "$RUN/report.md"
check "recommendation claims no difference from one boot" grep -qF 'not distinguishable with 1 boot; run --boots 6' "$RUN/report.md"
check "recommendation says how sure" grep -qF '**How sure:** each figure comes from one boot: there is no interval over boots.' "$RUN/report.md"
check "latency table shows bind's OOM kill under full" grep -qF '|4k |full |bind pmem:1 |n/a |n/a |n/a |n/a |n/a |n/a |n/a |n/a |oom\_killed at 14.92 MiB (memory-policy constraint) |' "$RUN/report.md"
check "latency_task has its own table" grep -qF 'Bench latency\_task: policy set with set\_mempolicy()' "$RUN/report.md"
check "latency_task is not a workload" sh -c "! ls '$RUN/plots' | grep -q workload"
check "early-ended cases grouped" grep -qF '|latency |thp |free |setup\_error |0 |all 6 |' "$RUN/report.md"
check "TCG caveat present" grep -q 'Emulated CPU (TCG)' "$RUN/report.html"
check "TAP checks from boots/1.tap, named by step" grep -qF '|1 |checks-pmem |ok |13 |' "$RUN/report.md"
check "TAP group of a later step" grep -qF '|1 |oom-pmem |ok |1 |oom bind/4k' "$RUN/report.md"
check "TAP counts" grep -qF '31 passed, 0 failed, 1 skipped (from boots/\*.tap)' "$RUN/report.md"
check "environment: topology file from meta.json topologies[]" grep -qF 'topologies/dram-pmem.yaml (hash sha256:' "$RUN/report.md"
check "environment: run end from meta.json" grep -qF '|run ended |2026-12-02T21:57:31+00:00 |' "$RUN/report.md"
check "panicked boot is flagged" grep -q 'Boot 2 ended panic' "$RUN/report.html"
check "panicked boot's rows stay out of the headline" sh -c "! grep -q '99999' '$RUN/report.md' || grep -q '|99999 |' '$RUN/report.md' && ! grep -qF '|bind |pmem:1 |99999' '$RUN/report.md'"
check "no network references in report.html" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$RUN/report.html'"
check "embedded figures are data: URIs" grep -q 'src="data:image/svg+xml;base64,' "$RUN/report.html"

# --- #16: a wall-clock case's mode shares, when its pooled histogram is multimodal ---
check "wall clock: bind 4k/free's mode shares beside its latency table" \
	grep -qF '|4k |free |bind pmem:1 |8192 (2 histograms) |2 modes: 76 % near 10.5 µs, 24 % near 16.9 µs |' "$RUN/report.md"
check "wall clock: mode shares in report.html too" \
	grep -qF '<td>4k</td><td>free</td><td>preferred pmem:1</td><td>8192 (2 histograms)</td><td>2 modes: 12 % near 10.5 µs, 88 % near 16.9 µs</td>' "$RUN/report.html"
check "wall clock: the rule is said" grep -qF 'valley below half the smaller peak (lab/report/modes.h)' "$RUN/report.md"
check "wall clock: a unimodal case has no modes row (weighted-interleave 4k/free)" \
	sh -c "! grep -qF '|4k |free |weighted-interleave pmem:1 |8192' '$RUN/report.md'"
# meta.json saying clock wall (runs since --clock) gives the same
WCR=$TMP/wcr/dram-pmem-20261202-215445
mkdir -p "$TMP/wcr" && cp -r "$FIXTURE" "$WCR"
sed -i 's/"accelerator": "tcg",/&\n  "clock": "wall",\n  "time_unit": "ns",/' "$WCR/meta.json"
"$LABTOOL" report "$WCR" >/dev/null 2>&1
check "meta.json clock wall: mode shares" grep -qF '|4k |free |bind pmem:1 |8192 (2 histograms) |2 modes: 76 % near 10.5 µs' "$WCR/report.md"
# the same histograms under icount: no mode shares, and why not
ICR=$TMP/icr/dram-pmem-20261202-215445
mkdir -p "$TMP/icr" && cp -r "$FIXTURE" "$ICR"
sed -i 's/"accelerator": "tcg",/&\n  "clock": "icount",\n  "time_unit": "insn",/' "$ICR/meta.json"
sed -i 's/ unit=ns / unit=insn /' "$ICR/boots/1.hist"
sed -i 's/,ns,/,insn,/' "$ICR/summary.csv"
"$LABTOOL" report "$ICR" >/dev/null 2>"$TMP/err" || { not_ok "report of the icount copy"; sed 's/^/# /' "$TMP/err"; }
check "icount: no mode shares" sh -c "! grep -q -e 'modes: ' -e 'is multimodal' '$ICR/report.md' '$ICR/report.html'"
check "icount: it says why" grep -qF 'Mode shares are shown for wall-clock runs only' "$ICR/report.md"

# --- an older run's model_read_bandwidth_mbps (an arithmetic mean) is not shown as the model ---
OLDM=$TMP/oldm/dram-pmem-20261202-215445
mkdir -p "$TMP/oldm" && cp -r "$FIXTURE" "$OLDM"
awk -F, -v OFS=, '$7 == "model_read_bandwidth_parallel_bound_mbps" { next }
	$7 == "model_read_bandwidth_serial_mbps" { $7 = "model_read_bandwidth_mbps"; if ($3 ~ /interleave/) $8 = 69700 }
	{ print }' "$FIXTURE/summary.csv" >"$OLDM/summary.csv"
"$LABTOOL" report "$OLDM" >/dev/null 2>"$TMP/err" || { not_ok "report of a run with the old model rows"; sed 's/^/# /' "$TMP/err"; }
check "old model rows: the arithmetic mean is not in the headline" \
	sh -c "grep '^|interleave (reference) |pmem:1 |' '$OLDM/report.md' | grep -qF '|193 |n/a (parallel bound n/a) |'"
check "old model rows: the figure says it has no bandwidth" grep -qF '>no modeled bandwidth in this run<' "$OLDM/plots/model-cost.svg"

# --- #18 item 4: the model after the fill, from the fill curve's per-node shares ---
# run-small has none (its cut kept only the on-set share): bench model's own case, said so
check "format 1 cut: the model is not after the fill, and why" \
	grep -qF "Not modeled: this run's fill curve has no per-node shares of its steps" "$RUN/report.md"
FILL=$TMP/fill/dram-pmem-20261202-215445
"$ROOT/tests/fixtures/make-run-fill.sh" "$FILL"
"$LABTOOL" report "$FILL" >/dev/null 2>"$TMP/err" || { not_ok "report of the format-2 fill run"; sed 's/^/# /' "$TMP/err"; }
check "fill model: the columns are titled as a model after the fill" \
	grep -qF '|model after the fill: read latency, ns (page-weighted) |model after the fill: read bandwidth, MB/s (serial, time-weighted; parallel bound) |' "$FILL/report.md"
# bind kept 896 MiB on node 1 (305 ns, 39400 MB/s); preferred put 192.3 of
# 1088 MiB on node 0 (81 ns, 100000 MB/s): 265.4 ns, 1 / (0.8233/39400 +
# 0.1767/100000) = 44125 MB/s serial, min(39400/0.8233, 100000/0.1767) = 47857
check "fill model: bind where its pages stayed" \
	sh -c "grep '^|bind |pmem:1 |' '$FILL/report.md' | grep -qF '|305 |39400 (parallel bound 39400) |'"
check "fill model: preferred with its overflow to node 0" \
	sh -c "grep '^|preferred |pmem:1 |' '$FILL/report.md' | grep -qF '|265.4 |44125 (parallel bound 47857) |'"
check "fill model: preferred-many with its own overflow" \
	sh -c "grep '^|preferred-many |pmem:1 |' '$FILL/report.md' | grep -qF '|267.7 |43820 (parallel bound 47268) |'"
check "fill model: a policy without a fill curve is bench model's own case, marked (free)" \
	sh -c "grep '^|interleave (reference) |pmem:1 |' '$FILL/report.md' | grep -qF '|193 (free) |56528 (parallel bound 78800) (free) |'"
check "fill model: the section says where preferred's pages went, with its rows" \
	grep -qE '^\*\*preferred pmem:1\*\*: its fill curve placed 1088 MiB \(22 steps\): node 1 82.33%, node 0 17.67%\. Modeled read latency 265.4 ns, read bandwidth 44125 MB/s serial \(parallel bound 47857 MB/s\) \(summary\.csv lines [0-9]' "$FILL/report.md"
check "fill model: beside bench model's own case with nothing full" \
	grep -qF "With nothing full (bench model's own case, 4k pages, scenario free): 305 ns, 39400 MB/s (summary.csv lines 801, 802); after the fill: read latency 39.58 ns lower, serial bandwidth 4725 MB/s higher." "$FILL/report.md"
check "fill model: bind's curve ended in its OOM kill, said" \
	grep -qF '**bind pmem:1**: its fill curve placed 896 MiB (16 steps; it ended oom\_killed): node 1 100%.' "$FILL/report.md"
check "fill model: the figure's data" grep -q '^"preferred pmem:1" 265.41' "$FILL/plots/data/model-cost.dat"
check "fill model: the figure marks bench model's own case" grep -q '^"interleave pmem:1 (free)" 193 ' "$FILL/plots/data/model-cost.dat"
check "fill model: the figure is titled as a model after the fill" \
	grep -qF 'Modeled access cost after the fill (a model, from HMAT)' "$FILL/plots/model-cost.svg"
check "fill model: the html says it too" grep -qF '<h2 id="model-fill">Modeled access cost after the fill (a model)</h2>' "$FILL/report.html"

check "no memory-side cache: no hit share said" sh -c "! grep -q 'Memory-side cache' '$FILL/report.md'"
# the same run with a memory-side cache in front of node 1 (a hit at 81 ns,
# 100000 MB/s, 25 % assumed): bench model's rows as tierbench writes them
CACHE=$TMP/cache/dram-pmem-20261202-215445
mkdir -p "$TMP/cache" && cp -r "$FILL" "$CACHE"
awk -F, -v OFS=, '{ print }
$2 == "model" && $3 == "-" && $7 == "hmat_read_latency_node1" {
	$7 = "model_cache_read_latency_node1"; $8 = 81; print
	$7 = "model_cache_read_bandwidth_node1"; $8 = 100000; $9 = "MB/s"; print
	$7 = "model_cache_hit_frac_node1"; $8 = 0.25; $9 = "ratio"; print
}
$2 == "model" && $3 == "bind" && $7 == "model_coverage_frac" {
	$7 = "model_cache_hit_frac"; $8 = 0.25; print
	$7 = "model_cache_coverage_frac"; $8 = 1; print
}' "$FILL/summary.csv" >"$CACHE/summary.csv"
"$LABTOOL" report --no-plots "$CACHE" >/dev/null 2>"$TMP/err" || { not_ok "report of the run with a cache"; sed 's/^/# /' "$TMP/err"; }
check "cache: the hit share bench model assumed, under the headline" \
	grep -qE "Memory-side cache: bench model assumed it serves 25% of the accesses to the pages on its nodes for bind pmem:1 \(model\\\\_cache\\\\_hit\\\\_frac: an assumption, tierbench --model-cache-hit, else the cache's size over the node's\) \(summary\.csv line [0-9]+\)\. " "$CACHE/report.md"
# node 1: 0.25 * 81 + 0.75 * 305 = 249 ns; preferred's 895.7 MiB there, 192.3 on node 0
check "cache: the model after the fill prices the hits" \
	sh -c "grep '^|preferred |pmem:1 |' '$CACHE/report.md' | grep -qF '|219.3 |'"
check "cache: the section states the share it assumed" \
	grep -qF 'A memory-side cache is assumed to serve 25% of the accesses to the pages on its nodes (model\_cache\_hit\_frac\_node\<N\>).' "$CACHE/report.md"

# --- #21: the access cost counted by the emulator (--memory-timing count) ---
check "no memory timing: no counted access section" sh -c "! grep -q 'Access cost counted' '$RUN/report.md'"
# the fill run with the rows lab/boot/accounting.c writes for two fill curves:
# bind's misses all on node 1, preferred's as its pages (82.33 % node 1);
# every other case of the run has no phase (an old guest's run)
COUNT=$TMP/count/dram-pmem-20261202-215445
mkdir -p "$TMP/count" && cp -r "$FILL" "$COUNT"
awk -F, -v OFS=, '{ print }
$2 == "fallback" && $6 == "fill" && $7 == "outcome_oom_killed" && $3 == "bind" {
	$7 = "mem_phases"; $8 = 16; $9 = "count"; print
	$7 = "llc_misses"; $8 = 14680064; print
	$7 = "llc_miss_share_node1"; $8 = 1; $9 = "ratio"; print
	$7 = "miss_latency_ns"; $8 = 305; $9 = "ns"; print
}
$2 == "fallback" && $6 == "fill" && $7 == "outcome_completed" && $3 == "preferred" {
	$7 = "mem_phases"; $8 = 22; $9 = "count"; print
	$7 = "llc_misses"; $8 = 17825792; print
	$7 = "llc_miss_share_node0"; $8 = 0.1767; $9 = "ratio"; print
	$7 = "llc_miss_share_node1"; $8 = 0.8233; print
	$7 = "miss_latency_ns"; $8 = 265.4; $9 = "ns"; print
}
END {	# a workload counted under bind: the paragraph on workloads
	w = "dram-pmem,stress-vm,bind,pmem:1,-,quick,"; t = ",run,1,ok"
	print w "outcome_completed,1,count" t; print w "mem_phases,1,count" t
	print w "access_cost_ns,30500,ns" t; print w "llc_misses,100,count" t
	print w "llc_miss_share_node1,1,ratio" t; print w "miss_latency_ns,305,ns" t
}' "$FILL/summary.csv" >"$COUNT/summary.csv"
"$LABTOOL" report --no-plots "$COUNT" >/dev/null 2>"$TMP/err" || { not_ok "report of the counted run"; sed 's/^/# /' "$TMP/err"; }
check "counted: the section, in html too" grep -qF '<h2 id="access">Access cost counted by the emulator (--memory-timing count)</h2>' "$COUNT/report.html"
check "counted: bind's fill curve, beside the model after the fill" \
	grep -qE '^\*\*bind pmem:1\*\*: over its fill curve \(16 steps counted; it ended oom\\_killed\) the emulator counted 14680064 LLC misses, 100% on pmem:1 \(node 1 100%\): 305 ns per miss at the HMAT read latencies, the same as the placement-only model after the fill \(305 ns per access\) \(summary\.csv lines [0-9]' "$COUNT/report.md"
check "counted: preferred's misses split by node" \
	grep -qF '17825792 LLC misses, 82.3% on pmem:1 (node 1 82.3%, node 0 17.7%): 265.4 ns per miss at the HMAT read latencies, the same as the placement-only model after the fill (265.4 ns per access)' "$COUNT/report.md"
check "counted: the cases without a phase are named, not skipped" \
	grep -qE '^No access phase was counted for [0-9]+ cases that ran: latency ' "$COUNT/report.md"
check "counted: preferred-many's fill curve without rows is no sentence of its own" \
	sh -c "! grep -q '^\*\*preferred-many pmem:1\*\*: over its fill' '$COUNT/report.md'"
# the workloads' paragraph says the isolation where the guest had CPUs to
# isolate (guest-topology.csv: node 0's CPUs 0-1), and not on one CPU
check "counted: a workload's threads on CPU 0 alone, of the guest's 2 CPUs" \
	grep -qF "of the guest's 2 CPUs a workload's threads ran on CPU 0 alone" "$COUNT/report.md"
sed -i 's/^0,0-1,/0,0,/' "$COUNT/guest-topology.csv"
"$LABTOOL" report --no-plots "$COUNT" >/dev/null 2>"$TMP/err" || { not_ok "report of the counted run, one CPU"; sed 's/^/# /' "$TMP/err"; }
check "counted, one CPU: the workloads' paragraph, without the isolation" \
	sh -c "grep -q '^Workloads (wlrun): each one' '$COUNT/report.md' && ! grep -q 'CPU 0 alone' '$COUNT/report.md'"

# --- without meta.json: facts from the guest's META line and run.args ---
NOMETA=$TMP/nometa/dram-pmem-20261202-215445
mkdir -p "$TMP/nometa" && cp -r "$FIXTURE" "$NOMETA" && rm "$NOMETA/meta.json"
"$LABTOOL" report "$NOMETA" >/dev/null 2>&1
check "no meta.json: kernel from the META line" grep -q '<h1>tierlab: dram-pmem, kernel 6.12.118-tierlab-e3b0c442</h1>' "$NOMETA/report.html"
check "no meta.json: accelerator from run.args" grep -qF 'accelerator tcg (requested, run.args)' "$NOMETA/report.md"
check "no meta.json: it says so" grep -qF 'meta.json is missing from this run' "$NOMETA/report.md"

# --- the decision rule: its branch from --fits, else meta.json "fits" (#18) ---
check "fits unknown by default: the safe answer" grep -qF '**Your case (--fits unknown):** not said' "$RUN/report.md"
check "fits unknown: the fits answer beside it" grep -qF '**If it fits (--fits yes):** **bind pmem:1**' "$RUN/report.md"
check "fits unknown: bind out, its OOM rows cited" grep -qE 'bind pmem:1 is out: oom\\_killed \(4k\) .* \(summary\.csv lines [0-9]+' "$RUN/report.md"
check "the rule is stated" grep -qF '**Rule:** if the workload fits, bind' "$RUN/report.md"
FITS=$TMP/fits/dram-pmem-20261202-215445
mkdir -p "$TMP/fits" && cp -r "$FIXTURE" "$FITS"
sed -i 's/"accelerator": "tcg",/&\n  "fits": "yes",/' "$FITS/meta.json"
"$LABTOOL" report --no-plots "$FITS" >/dev/null 2>"$TMP/err" || { not_ok "report with meta.json fits"; sed 's/^/# /' "$TMP/err"; }
check "meta.json fits yes: bind" grep -qF '**Your case (--fits yes):** the workload fits the nodes it is given. **bind pmem:1**: 100%' "$FITS/report.md"
check "meta.json fits yes: no other case" sh -c "! grep -qF 'If it fits' '$FITS/report.md'"
"$LABTOOL" report --no-plots --fits no "$FITS" >/dev/null 2>"$TMP/err"
check "--fits no overrides meta.json" grep -qF '**Your case (--fits no):** the workload may outgrow' "$FITS/report.md"
rm -f "$FITS/report.md" "$FITS/report.html"
rm -rf "$FITS/plots"
sed -i 's/"fits": "yes"/"fits": "sometimes"/' "$FITS/meta.json"
"$LABTOOL" report "$FITS" >/dev/null 2>"$TMP/err"
rc=$?
check "meta.json fits 'sometimes': exit 65 (got $rc)" test $rc -eq 65
check "meta.json fits 'sometimes': one line naming file and field" sh -c \
	"test \$(wc -l <'$TMP/err') -eq 1 && grep -qF \"$FITS/meta.json: fits: 'sometimes' is not yes, no or unknown\" '$TMP/err'"
check "meta.json fits 'sometimes': nothing written" sh -c "! ls -a '$FITS' | grep -q -e report -e plots"
"$LABTOOL" report --fits maybe "$RUN" >/dev/null 2>"$TMP/err"
rc=$?
check "--fits maybe: usage exit (got $rc)" test $rc -eq 64
check "--fits maybe: says so" grep -qF "labtool report: --fits: 'maybe' is not yes, no or unknown" "$TMP/err"

# --- #18 item 5: the first screen: verdict, fill curve, OOM matrix, then the tables ---
line_of() { # line_of FILE REGEX: the first line matching, 0 when none does
	l=$(grep -n -m1 -e "$2" "$1" | cut -d: -f1)
	echo "${l:-0}"
}
in_order() { # in_order LINE...: every one found, each after the one before
	prev=0
	for l; do [ "$l" -gt "$prev" ] || return 1; prev=$l; done
}
v=$(line_of "$RUN/report.md" '^## Which policy?$')
f=$(line_of "$RUN/report.md" '^!\[fallback-fill-')
m=$(line_of "$RUN/report.md" '^!\[oom-matrix\]')
t=$(line_of "$RUN/report.md" '^|')
check "report.md: verdict (line $v), fill curve ($f), OOM matrix ($m), then the first table ($t)" \
	in_order "$v" "$f" "$m" "$t"
v=$(line_of "$RUN/report.html" '^<h2 id="answer">')
f=$(line_of "$RUN/report.html" '^<figure id="fig-fallback-fill-')
m=$(line_of "$RUN/report.html" '^<figure id="fig-oom-matrix"')
t=$(line_of "$RUN/report.html" '<table>')
check "report.html: verdict (line $v), fill curve ($f), OOM matrix ($m), then the first table ($t)" \
	in_order "$v" "$f" "$m" "$t"

# --- #18 item 3: the fixture is summary format 1 (no summary_format in meta.json):
# its rows are read under format 2's names ---
check "format 1 fixture: preferred_frac read as on_set_frac" grep -qF '|fallback |preferred |pmem:1 |4k |free |on\_set\_frac |' "$RUN/report.md"
check "format 1 fixture: no old name left in the report" sh -c "! grep -qE 'preferred\\\\?_frac|inside\\\\?_frac' '$RUN/report.md'"

# --- a run of a newer summary format is refused, not misread ---
NEWER=$TMP/newer/dram-pmem-20261202-215445
mkdir -p "$TMP/newer" && cp -r "$FIXTURE" "$NEWER"
sed -i 's/"accelerator": "tcg",/&\n  "summary_format": 3,/' "$NEWER/meta.json"
"$LABTOOL" report "$NEWER" >/dev/null 2>"$TMP/err"
rc=$?
check "summary_format 3: exit 65 (got $rc), one line naming it, nothing written" sh -c \
	"test $rc -eq 65 && test \$(wc -l <'$TMP/err') -eq 1 && grep -qF 'meta.json: summary_format: '\\''3'\\'' is not 1 to 2' '$TMP/err' && ! ls -a '$NEWER' | grep -q -e report -e plots"

# --- a meta.json of a newer meta_format (lab/rundir/meta.h) is refused by report and compare ---
NEWMETA=$TMP/newmeta/dram-pmem-20261202-215445
mkdir -p "$TMP/newmeta" && cp -r "$FIXTURE" "$NEWMETA"
sed -i 's/^{$/{\n  "meta_format": 99,/' "$NEWMETA/meta.json"
"$LABTOOL" report "$NEWMETA" >/dev/null 2>"$TMP/err"
rc=$?
check "meta_format 99: report exits 65 (got $rc), one line naming the file, nothing written" sh -c \
	"test $rc -eq 65 && test \$(wc -l <'$TMP/err') -eq 1 && grep -qF '$NEWMETA/meta.json: meta_format 99 is newer than this labtool reads' '$TMP/err' && ! ls -a '$NEWMETA' | grep -q -e report -e plots"
"$LABTOOL" compare --no-plots -o "$TMP/newmeta-cmp" "$FIXTURE" "$NEWMETA" >/dev/null 2>"$TMP/err"
rc=$?
check "meta_format 99: compare exits 65 (got $rc), one line naming the file, nothing written" sh -c \
	"test $rc -eq 65 && test \$(wc -l <'$TMP/err') -eq 1 && grep -qF '$NEWMETA/meta.json: meta_format 99' '$TMP/err' && test ! -e '$TMP/newmeta-cmp'"

# --- regenerating gives the same files, wherever the run lives ---
cp -r "$RUN" "$TMP/first"
"$LABTOOL" report "$RUN" >/dev/null 2>&1
check "regenerated report.html is byte-identical" cmp "$TMP/first/report.html" "$RUN/report.html"
check "regenerated report.md is byte-identical" cmp "$TMP/first/report.md" "$RUN/report.md"
check "regenerated plots are byte-identical" diff -r "$TMP/first/plots" "$RUN/plots"
mkdir -p "$TMP/elsewhere/x"
cp -r "$FIXTURE" "$TMP/elsewhere/x/dram-pmem-20261202-215445"
"$LABTOOL" report "$TMP/elsewhere/x/dram-pmem-20261202-215445/" >/dev/null 2>&1
check "report does not depend on the run's path" cmp "$TMP/first/report.html" \
	"$TMP/elsewhere/x/dram-pmem-20261202-215445/report.html"

# --- bad input: one line naming file and line, exit non-zero, nothing written ---
BAD=$TMP/bad
cp -r "$FIXTURE" "$BAD"
sed -i '5s/,MiB,/,MiB,extra,/' "$BAD/summary.csv"
if "$LABTOOL" report "$BAD" >/dev/null 2>"$TMP/err"; then
	not_ok "malformed row fails"
else
	ok "malformed row fails"
fi
check "error names file and line" grep -q "summary.csv:5: expected 12 fields, got 13" "$TMP/err"
check "error is one line" test "$(wc -l <"$TMP/err")" -eq 1
check "nothing written on bad input" sh -c "! ls -a '$BAD' | grep -q -e report -e plots"
cp "$FIXTURE/summary.csv" "$BAD/summary.csv"
sed -i '7s/,preferred_frac,1,/,preferred_frac,12 3,/' "$BAD/summary.csv"
"$LABTOOL" report "$BAD" >/dev/null 2>"$TMP/err"
check "bad value names the field" grep -q "summary.csv:7: value: '12 3'" "$TMP/err"
rm "$BAD/summary.csv"
"$LABTOOL" report "$BAD" >/dev/null 2>"$TMP/err"
rc=$?
check "missing summary.csv fails (exit $rc)" test $rc -ne 0
check "missing summary.csv is named" grep -q "summary.csv: No such file" "$TMP/err"
cp "$FIXTURE/summary.csv" "$BAD/summary.csv"
printf '{"kernel_release": "x",\n "accelerator": }\n' >"$BAD/meta.json"
"$LABTOOL" report "$BAD" >/dev/null 2>"$TMP/err"
check "malformed meta.json names line and column" grep -q "meta.json:2:17: expected a value" "$TMP/err"

# --- #17: a case tierbench found invalid is named and left out of every table ---
INV=$TMP/inv/dram-pmem-20261202-215445
mkdir -p "$TMP/inv" && cp -r "$FIXTURE" "$INV"
awk -F, -v OFS=, '{ print }
	$2 == "latency" && $3 == "bind" && $5 == "4k" && $6 == "full" && $7 == "outcome_oom_killed" {
		$7 = "invalid_filler_gone"; print
		$7 = "outcome_invalid"; print }' "$FIXTURE/summary.csv" |
	awk -F, -v OFS=, '!($2 == "latency" && $3 == "bind" && $5 == "4k" && $6 == "full" && $7 == "outcome_oom_killed")' \
	>"$INV/summary.csv"
if "$LABTOOL" report "$INV" >/dev/null 2>"$TMP/err"; then ok "report of a run with an invalid case exits 0"
else not_ok "report of a run with an invalid case exits 0"; sed 's/^/# /' "$TMP/err"; fi
check "invalid case named with its reason" grep -qF '|latency |bind |pmem:1 |4k |full |1 |invalid |filler\_gone |' "$INV/report.md"
check "invalid case left out of the latency table" sh -c "! grep -qF '|4k |full |bind pmem:1 |' '$INV/report.md'"
check "invalid case not counted as a boot problem" sh -c "! grep -qi 'boot 1.*invalid' '$INV/report.md'"
check "the valid cases of that scenario stay" grep -qF '|4k |full |preferred pmem:1 |' "$INV/report.md"

# --- compare: a second "kernel" whose preferred-many medians are 10% lower ---
B=$TMP/b/dram-pmem-20261203-090000
mkdir -p "$TMP/b" && cp -r "$FIXTURE" "$B"
awk -F, -v OFS=, '$2 == "latency" && $3 == "preferred-many" &&
	($7 == "p50" || $7 ~ /^p50_ci95_/) { $8 = int($8 * 0.9) } { print }' \
	"$FIXTURE/summary.csv" >"$B/summary.csv"
sed -i 's/6.12.118-tierlab-e3b0c442/6.12.118-tierlab-77aa01be/' "$B/meta.json"
if "$LABTOOL" compare -o "$TMP/cmp" "$RUN" "$B" >/dev/null 2>"$TMP/err"; then
	ok "labtool compare exits 0"
else
	not_ok "labtool compare exits 0"; sed 's/^/# /' "$TMP/err"
fi
check "compare.html/md/csv written" test -s "$TMP/cmp/compare.html" -a -s "$TMP/cmp/compare.md" -a -s "$TMP/cmp/compare.csv"
check "one boot a run: a 10% difference is not claimed" \
	grep -q '^latency,preferred-many,pmem:1,4k,free,p50,2,16384,14745,-1639,-1639,-1639,same$' "$TMP/cmp/compare.csv"
check "one boot a run: compare says how many boots would" \
	grep -qF 'not distinguishable with 1+1 boots; run --boots 4' "$TMP/cmp/compare.md"
check "no claim where nothing differs" grep -q '^latency,bind,pmem:1,4k,free,p50,2,10752,10752,0,0,0,same$' "$TMP/cmp/compare.csv"
check "set_mempolicy medians compared too" grep -q '^latency_task,preferred,pmem:1,4k,free,p50,2,' "$TMP/cmp/compare.csv"
check "compare shows both kernels" grep -q '6.12.118-tierlab-77aa01be' "$TMP/cmp/compare.md"
check "compare draws its figure (SVG, PNG)" test -s "$TMP/cmp/compare-latency.svg" -a -s "$TMP/cmp/compare-latency.png"
# the figure's data: the difference in percent of run 1, bracket, colour by verdict
check "figure: an unclaimed -10% is grey" \
	grep -q '^"preferred-many pmem:1 4k free" -10.0037 -10.0037 -10.0037 8359053$' "$TMP/cmp/compare-latency.dat"
check "figure: an overlap is grey, at 0" \
	grep -q '^"bind pmem:1 4k free" 0 0 0 8359053$' "$TMP/cmp/compare-latency.dat"
check "the report embeds the figure" grep -q 'src="data:image/svg+xml;base64,' "$TMP/cmp/compare.html"
check "compare.md links the PNG" grep -q '](compare-latency.png)' "$TMP/cmp/compare.md"
"$LABTOOL" compare --no-plots -o "$TMP/cmp-np" "$RUN" "$B" >/dev/null 2>"$TMP/err"
check "--no-plots: no figure, its data and the tables still written" \
	sh -c "test -s '$TMP/cmp-np/compare.csv' -a -s '$TMP/cmp-np/compare-latency.dat' && ! ls '$TMP/cmp-np' | grep -q 'compare-latency.[sp][vn]g'"
cp -r "$TMP/cmp" "$TMP/cmp-again"
"$LABTOOL" compare --no-plots -o "$TMP/cmp-again" "$RUN" "$B" >/dev/null 2>"$TMP/err"
check "into an old comparison's directory: its figure does not stay" \
	sh -c "! ls '$TMP/cmp-again' | grep -q 'compare-latency.[sp][vn]g'"
mkdir -p "$TMP/badplots" && cp "$ROOT/plots/latency.gp" "$TMP/badplots/" && echo 'this is not gnuplot' >"$TMP/badplots/compare.gp"
"$LABTOOL" compare --plots "$TMP/badplots" -o "$TMP/cmp-bad" "$RUN" "$B" >/dev/null 2>"$TMP/err"
rc=$?
check "a failing gnuplot fails compare (exit $rc) and names the script" \
	sh -c "test $rc -ne 0 && grep -q 'gnuplot .*compare.gp on .*compare-latency.dat failed' '$TMP/err'"
check "a failed compare leaves no directory" test ! -e "$TMP/cmp-bad"
# same topology: the cases of one benchmark on two node sets stay apart
C1=$TMP/c1/dram-pmem-20261203-100000 C2=$TMP/c2/dram-pmem-20261203-110000
mkdir -p "$TMP/c1" "$TMP/c2" && cp -r "$FIXTURE" "$C1" && cp -r "$FIXTURE" "$C2"
for c in "$C1:5" "$C2:7"; do
	printf 'dram-pmem,fallback-order,preferred-many,%s,4k,tier,fallback_node,%s,node,x,1,ok\n' \
		pmem:0 "${c#*:}" pmem:1 3 >>"${c%%:*}/summary.csv"
done
"$LABTOOL" compare -o "$TMP/cmp2" "$C1" "$C2" >/dev/null 2>"$TMP/err"
check "same topology: rows matched per node set too" \
	grep -q '^fallback-order,preferred-many,pmem:0,4k,tier,fallback_node,2,5,7,2,,,not-tested$' "$TMP/cmp2/compare.csv"
check "same topology: the other node set its own line" \
	grep -q '^fallback-order,preferred-many,pmem:1,4k,tier,fallback_node,2,3,3,0,,,not-tested$' "$TMP/cmp2/compare.csv"
"$LABTOOL" compare "$RUN" >/dev/null 2>&1
check "compare needs two runs (exit 64)" test $? -eq 64
# icount: the A/A pair spreads 0, but preferred-many moves 86 insn between
# run A's boots; B is 66.5 lower, every pair of boots the same way.  The
# boots are identical cases too: no claim (two identical quick runs gave
# such 2m/pressure figures, and compare called 12 of them "lower").
I1=$TMP/i1/dram-pmem-20261204-005435 I2=$TMP/i2/dram-pmem-20261204-005920
"$ROOT/tests/fixtures/make-run-icount.sh" "$I1" 6366 6452
"$ROOT/tests/fixtures/make-run-icount.sh" "$I2" 6340 6345
"$LABTOOL" compare --no-plots -o "$TMP/cmp-icount" "$I1" "$I2" >/dev/null 2>"$TMP/err"
check "icount: no claim within the spread of a case over boots" \
	grep -q '^latency,preferred-many,pmem:1,4k,pressure,p50,2,6409,6342.5,-66.5,-112,-21,same$' "$TMP/cmp-icount/compare.csv"
"$ROOT/tests/fixtures/make-run-icount.sh" "$I2" 6300 6310
"$LABTOOL" compare --no-plots -o "$TMP/cmp-icount2" "$I1" "$I2" >/dev/null 2>"$TMP/err"
check "icount: a claim beyond it (104 insn lower, every boot)" \
	grep -q '^latency,preferred-many,pmem:1,4k,pressure,p50,2,6409,6305,-104,-152,-56,lower$' "$TMP/cmp-icount2/compare.csv"

# guest instructions against nanoseconds: refused, nothing written
if "$LABTOOL" compare --no-plots -o "$TMP/cmp-clocks" "$I1" "$RUN" >/dev/null 2>"$TMP/err"; then
	not_ok "compare of an icount and a wall-clock run is refused"
else
	check "compare of an icount and a wall-clock run is refused, naming both clocks" \
		grep -qF "timings in ns, but $I1 has them in guest instructions (--clock wall vs icount)" "$TMP/err"
	check "compare across clocks writes nothing" test ! -e "$TMP/cmp-clocks"
fi

# --- boots are the replicate: boots 2..N change the headline ---
MB=$TMP/boots/dram-pmem-20261203-120000
"$ROOT/tests/fixtures/make-run-boots.sh" "$MB" 3
"$LABTOOL" report "$MB" >/dev/null 2>"$TMP/err" || { not_ok "report of the 3-boot fixture"; sed 's/^/# /' "$TMP/err"; }
check "3 boots: the headline is the median over boots, with their range" \
	grep -qF '|bind |pmem:1 |16896 \[10752, 16896\] |16384 \[16384, 16384\] |' "$MB/report.md"
check "3 boots, nodes full (fits unknown): bind's fault cost is its OOM, said so" \
	grep -qF 'scenario full: the preferred nodes held full, policy set with mbind()) of preferred pmem:1: 16896 ns \[16896, 16896\]' "$MB/report.md"
check "3 boots, nodes full: the policy without a figure is named with its outcome" \
	grep -qF 'No fault latency in this scenario for bind pmem:1 oom\_killed' "$MB/report.md"
cp -r "$MB" "$TMP/mb-fits"
"$LABTOOL" report --no-plots --fits yes "$TMP/mb-fits" >/dev/null 2>"$TMP/err"
check "3 boots, fits yes (nothing full): the recommendation quotes the median over boots" \
	grep -qF 'scenario free: no node full, policy set with mbind()) of bind pmem:1: 16896 ns \[10752, 16896\]' "$TMP/mb-fits/report.md"
check "3 boots, fits yes: not distinguishable with 3 boots" \
	grep -qF 'not distinguishable with 3 boots' "$TMP/mb-fits/report.md"
check "3 boots: the interval's coverage is said" grep -qF 'its bracket the range of 3 boots, coverage 75%' "$MB/report.md"
check "3 boots: the median figure shows every boot" \
	grep -q '^"bind pmem:1" 16896 10752 16896 10752 16896 16896 $' "$MB/plots/data/latency-median-4k-free.dat"
check "3 boots: every boot's row stays in All figures" \
	sh -c "grep '<td>latency</td><td>bind</td><td>pmem:1</td><td>4k</td><td>free</td><td>p50</td>' '$MB/report.html' | grep -c '<td>ok</td>' | grep -qx 3"
# four boots a run, every boot of B 10% lower: compare calls it (Hodges-Lehmann, 97.1%)
for d in A4:1 B4:0.9; do
	dir=$TMP/${d%%:*}/dram-pmem-20261203-13000${#d}
	"$ROOT/tests/fixtures/make-run-boots.sh" "$dir" 4
	awk -F, -v OFS=, -v f="${d#*:}" '$2 == "latency" && $3 == "preferred-many" && $7 == "p50" {
		$8 = int(($8 + 16 * $11) * f) } { print }' "$dir/summary.csv" >"$dir/s" && mv "$dir/s" "$dir/summary.csv"
	eval "${d%%:*}=\$dir"
done
"$LABTOOL" compare --no-plots -o "$TMP/cmp4" "$A4" "$B4" >/dev/null 2>"$TMP/err"
check "4+4 boots: a difference in every boot is called lower" \
	grep -q '^latency,preferred-many,pmem:1,4k,free,p50,2,16440,14795.5,-1644.5,-1704,-1583,lower$' "$TMP/cmp4/compare.csv"
check "4+4 boots: nothing claimed where the boots agree" \
	grep -q '^latency,preferred,pmem:1,4k,free,p50,2,16384,16384,0,0,0,same$' "$TMP/cmp4/compare.csv"
check "4+4 boots: the verdict names its interval" grep -qF 'lower (97.14% interval over boots \[-1704, -1583\])' "$TMP/cmp4/compare.md"

# --- headless Chromium: the page loads and every figure decodes ---
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "# SKIP: chromium not installed (apt-get install chromium)"
	[ $fails = 0 ] && exit 77 || exit 1
fi
chrome_at() { # chrome_at WIDTH,HEIGHT chromium-arguments...
	size=$1; shift
	profile=$(mktemp -d "$TMP/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--window-size="$size" "$@" 2>"$TMP/chrome.err"
}
chrome() { chrome_at 1280,2400 "$@"; }
chrome --dump-dom "file://$RUN/report.html" >"$TMP/dom.html"
nimg=$(ls "$RUN"/plots/*.svg | wc -l)
check "Chromium dumped the DOM" test -s "$TMP/dom.html"
check "page script saw all $nimg figures decode" grep -q "data-state=\"ok\">All $nimg figures loaded." "$TMP/dom.html"
SHOT=${TIERLAB_TEST_OUT:-$TMP}/report-screenshot.png
(cd "$TMP" && chrome --screenshot="$SHOT" "file://$RUN/report.html" >/dev/null)
check "screenshot taken" test -s "$SHOT"
[ -n "${TIERLAB_TEST_OUT:-}" ] && echo "# screenshot: $SHOT"
# a broken image must be caught: corrupt one embedded figure
sed 's|src="data:image/svg+xml;base64,[A-Za-z0-9+/=]*"|src="data:image/svg+xml;base64,PHN2Zz4="|' \
	"$RUN/report.html" >"$TMP/broken.html"
chrome --dump-dom "file://$TMP/broken.html" >"$TMP/dom2.html"
check "a broken figure is detected" grep -q 'data-state="broken"' "$TMP/dom2.html"

# --- #18 item 5: at 1280x800 the verdict and the fill curve are on the first screen ---
png_size() { # png_size FILE: WIDTHxHEIGHT from the PNG's IHDR chunk, nothing when not a PNG
	[ -s "$1" ] || return 0
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 0
	[ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = IHDR ] || return 0
	# shellcheck disable=SC2046 # the eight bytes, one word each
	set -- $(od -An -tu1 -j16 -N8 "$1")
	echo "$(( ($1 << 24) | ($2 << 16) | ($3 << 8) | $4 ))x$(( ($5 << 24) | ($6 << 16) | ($7 << 8) | $8 ))"
}
SCREEN=${TIERLAB_TEST_OUT:-$TMP}/report-1280x800.png
(cd "$TMP" && chrome_at 1280,800 --screenshot="$SCREEN" "file://$RUN/report.html" >/dev/null)
size=$(png_size "$SCREEN")
check "1280x800 screenshot is a PNG of exactly 1280x800 (IHDR: ${size:-none})" test "$size" = 1280x800
[ -n "${TIERLAB_TEST_OUT:-}" ] && echo "# first screen: $SCREEN"
# Positions from a test-only copy of the page (the shipped report has no
# probe): after load, a script writes where the verdict and the fill curve
# are into the DOM, and --dump-dom hands it back.
cat >"$TMP/probe.js" <<'PROBE'
<script>
window.addEventListener('load', function () {
  function rect(sel) {
    var e = document.querySelector(sel);
    return e ? e.getBoundingClientRect() : { top: -1, bottom: -1 };
  }
  var p = document.createElement('p'), de = document.documentElement;
  var v = rect('.answer'), f = rect('figure[id^="fig-fallback-fill-"]');
  var fi = rect('figure[id^="fig-fallback-fill-"] img');
  p.id = 'layout-probe';
  p.setAttribute('data-width', window.innerWidth);
  p.setAttribute('data-overflow', de.scrollWidth - de.clientWidth);
  p.setAttribute('data-verdict-top', Math.round(v.top));
  p.setAttribute('data-fill-top', Math.round(f.top));
  p.setAttribute('data-fill-img-bottom', Math.round(fi.bottom));
  document.body.appendChild(p);
});
</script>
PROBE
with_probe() { # with_probe IN OUT: IN with the probe script just before </body>
	awk -v probe="$TMP/probe.js" '/^<\/body>$/ { while ((getline l <probe) > 0) print l } { print }' \
		"$1" >"$2"
}
probe_val() { # probe_val DOM NAME: data-NAME of the probe, -1 when it did not run
	x=$(grep -o '<p id="layout-probe"[^>]*>' "$1" | sed -n "s/.* data-$2=\"\(-\?[0-9]*\)\".*/\1/p")
	echo "${x:--1}"
}
with_probe "$RUN/report.html" "$TMP/probe.html"
check "the shipped report has no layout probe" sh -c "! grep -q layout-probe '$RUN/report.html'"
chrome_at 1280,800 --dump-dom "file://$TMP/probe.html" >"$TMP/probe-dom.html"
vt=$(probe_val "$TMP/probe-dom.html" verdict-top)
ft=$(probe_val "$TMP/probe-dom.html" fill-top)
w=$(probe_val "$TMP/probe-dom.html" width)
ov=$(probe_val "$TMP/probe-dom.html" overflow)
check "1280x800: the probe ran in a 1280-wide window (width $w)" test "$w" = 1280
check "1280x800: the page does not scroll sideways (overflow ${ov} px)" test "$ov" -eq 0
check "1280x800: verdict (top $vt) above the fill curve (top $ft)" test "$vt" -ge 0 -a "$vt" -lt "$ft"
check "1280x800: the fill curve starts on the first screen (top $ft < 800)" test "$ft" -ge 0 -a "$ft" -lt 800
# a short verdict (as a one-paragraph recommendation gives): the whole fill
# curve is on the first screen too
awk '/^<div class="answer">$/ { skip = 1
	print "<div class=\"answer\">\n<p><strong>preferred pmem:1</strong>: a two-line verdict, the " \
	      "length of one short paragraph of the recommendation, naming the policy and the " \
	      "rows of this run that support it.</p>\n</div>" }
     skip && /^<\/div>$/ { skip = 0; next } !skip' "$TMP/probe.html" >"$TMP/probe-short.html"
chrome_at 1280,800 --dump-dom "file://$TMP/probe-short.html" >"$TMP/probe-short-dom.html"
fb=$(probe_val "$TMP/probe-short-dom.html" fill-img-bottom)
check "1280x800, short verdict: the whole fill curve on the first screen (bottom $fb <= 800)" \
	test "$fb" -gt 0 -a "$fb" -le 800

# --- THP: huge-page and base-page faults apart (#17 item 3) ---
THP=$TMP/thp/dram-pmem-20261202-215445
mkdir -p "$TMP/thp" && cp -r "$FIXTURE" "$THP"
rm -f "$THP"/report.* && rm -rf "$THP/plots"
tail=dram-pmem-20261202-215445,1,ok
for r in huge_fault_count,7,faults huge_fault_p50,2133301,ns base_fault_count,3584,faults \
	 base_fault_p50,6340,ns thp_fault_alloc_delta,7,count thp_fault_fallback_delta,7,count; do
	echo "dram-pmem,latency,bind,pmem:1,thp,free,$r,$tail" >>"$THP/summary.csv"
done
"$LABTOOL" report --no-plots "$THP" >/dev/null 2>"$TMP/thp-err" || sed 's/^/# /' "$TMP/thp-err"
check "THP: huge and base faults apart, with the kernel's counters, for the case that has them" \
	grep -qF "|free |bind pmem:1 |7 |2133301 |3584 |6340 |7 |7 |" "$THP/report.md"
thp_rows=$(awk '/huge-page and base-page faults apart/ { on = 1; next }
	on && /^\|/ { n++ } on && n && !/^\|/ { exit } END { print n - 2 }' "$THP/report.md")
check "THP: one row, the one case with huge/base rows (got $thp_rows)" test "$thp_rows" = 1
check "THP: the table is absent from a run without those rows" \
	sh -c "! grep -q 'huge-page and base-page faults apart' '$RUN/report.md'"

# --- bench threads (issue 20): per-thread placement, cited ---
# tests/fixtures/threads-rows.csv: threads_2nodes rows of a real quick run on
# 2s2c-dram-pmem (2026-12-07, bind/preferred/preferred-many/default, the
# rows the section reads), topology and run id set to the fixture's.
TH=$TMP/threads/dram-pmem-20261202-215445
mkdir -p "$TMP/threads" && cp -r "$FIXTURE" "$TH"
rm -f "$TH"/report.* && rm -rf "$TH/plots"
cat "$ROOT/tests/fixtures/threads-rows.csv" >>"$TH/summary.csv"
"$LABTOOL" report --no-plots "$TH" >/dev/null 2>"$TMP/th-err" || { not_ok "report of the threads run"; sed 's/^/# /' "$TMP/th-err"; }
check "threads: the section, in html too" grep -qF '<h2 id="threads">Threads on several CPUs</h2>' "$TH/report.html"
check "threads: which policies follow each thread's node" \
	grep -qF 'Threads on different nodes (pmem:2+3) landed on different nodes under bind, preferred-many and default, on one node under preferred (the rows above).' "$TH/report.md"
# preferred-many's thread 1 (CPU 2, node 1) on node 3, cited by the lines that say so
lines=$(for m in cpu,2 node,1 top_node,3 top_frac,1; do
	grep -n ",threads_2nodes,preferred-many,pmem:2+3,4k,free,thread1_$m," "$TH/summary.csv" | cut -d: -f1
done | paste -sd, | sed 's/,/, /g')
check "threads: preferred-many's thread 1 on node 3, cited (lines $lines)" \
	grep -qF "thread 1 (CPU 2, node 1) 100 % on node 3 (summary.csv lines $lines)" "$TH/report.md"
check "threads: default's thread 1 on its own node 1" \
	grep -qE '^With 4 threads on the CPUs of two nodes, alternating, default over pmem:2\+3 put thread 0 \(CPU 0, node 0\) 100 % on node 0 .*thread 1 \(CPU 2, node 1\) 100 % on node 1 ' "$TH/report.md"
check "threads: a table row per thread and policy (16)" \
	test "$(grep -c '^|on the CPUs of two nodes, alternating |pmem:2+3 |' "$TH/report.md")" = 16
check "threads: no section without its rows" sh -c "! grep -q 'Threads on several CPUs' '$RUN/report.md'"

echo "# $((n - fails)) passed, $fails failed"
[ $fails = 0 ]
