#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# labtool report on the fixture run: plots exist, are valid SVG/PNG and hold
# the expected series; report.html/.md list every policy; regenerating gives
# byte-identical files; bad input fails with file:line and writes nothing;
# headless Chromium loads the page with every figure decoded.
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
RUN=$TMP/a/small-tiered-20250301-101500
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
for kind in latency latency-median fallback-fill placement oom-matrix model-cost \
	    fallback-order workload; do
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

# --- expected series ---
for label in "bind pmem:1+3" "preferred pmem:1" "preferred-many pmem:1+3" \
	     "weighted-interleave all:0+1+2+3" "interleave all:0+1+2+3" "default"; do
	check "latency plot has series '$label'" grep -qF ">$label<" "$RUN/plots/latency-4k-free.svg"
done
for label in "bind pmem:1+3" "preferred pmem:1" "preferred-many pmem:1+3"; do
	check "fill curve has series '$label'" grep -qF ">$label<" "$RUN/plots/fallback-fill-4k.svg"
done
check "placement plot has node segments" grep -qF ">node 3 (tier 5)<" "$RUN/plots/placement-4k-full.svg"
check "OOM matrix shows oom-killed" grep -qF ">oom-killed<" "$RUN/plots/oom-matrix.svg"
check "OOM matrix shows sigbus" grep -qF ">sigbus<" "$RUN/plots/oom-matrix.svg"
check "titles name topology and kernel" grep -qF "small-tiered, kernel 6.12.57-tierlab-3f9c2a1d" "$RUN/plots/model-cost.svg"
check "workload figure per metric" test -s "$RUN/plots/workload-fio-randread-read-iops.svg"

# --- the report lists every policy of the fixture ---
policies=$(cut -d, -f3 "$FIXTURE/summary.csv" | sed 1d | sort -u | grep -vx -- '-')
for p in $policies; do
	check "report.html lists policy $p" grep -q "<td>$p\( (reference)\)\?</td>" "$RUN/report.html"
	check "report.md lists policy $p" grep -q "^|$p\( (reference)\)\? |" "$RUN/report.md"
done
check "recommendation names a policy" grep -q 'class="answer"><strong>preferred-many' "$RUN/report.html"
check "recommendation claims no difference where CIs overlap" grep -q 'cannot be told apart from bind' "$RUN/report.md"
check "TCG caveat present" grep -q 'Emulated CPU (TCG)' "$RUN/report.html"
check "TAP checks shown" grep -q 'fallback-order sysctl present' "$RUN/report.md"
check "unknown metric kept (minor_faults)" grep -q 'minor_faults' "$RUN/report.html"
check "unknown word row kept (paging_mode)" grep -q 'paging\\_mode' "$RUN/report.md"
check "panicked boot is flagged" grep -q 'Boot b4 ended panic' "$RUN/report.html"
check "no network references in report.html" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$RUN/report.html'"
check "embedded figures are data: URIs" grep -q 'src="data:image/svg+xml;base64,' "$RUN/report.html"

# --- regenerating gives the same files, wherever the run lives ---
cp -r "$RUN" "$TMP/first"
"$LABTOOL" report "$RUN" >/dev/null 2>&1
check "regenerated report.html is byte-identical" cmp "$TMP/first/report.html" "$RUN/report.html"
check "regenerated report.md is byte-identical" cmp "$TMP/first/report.md" "$RUN/report.md"
check "regenerated plots are byte-identical" diff -r "$TMP/first/plots" "$RUN/plots"
mkdir -p "$TMP/elsewhere/x"
cp -r "$FIXTURE" "$TMP/elsewhere/x/small-tiered-20250301-101500"
"$LABTOOL" report "$TMP/elsewhere/x/small-tiered-20250301-101500/" >/dev/null 2>&1
check "report does not depend on the run's path" cmp "$TMP/first/report.html" \
	"$TMP/elsewhere/x/small-tiered-20250301-101500/report.html"

# --- bad input: one line naming file and line, exit non-zero, nothing written ---
BAD=$TMP/bad
cp -r "$FIXTURE" "$BAD"
sed -i '5s/,ns,/,ns,extra,/' "$BAD/summary.csv"
if "$LABTOOL" report "$BAD" >/dev/null 2>"$TMP/err"; then
	not_ok "malformed row fails"
else
	ok "malformed row fails"
fi
check "error names file and line" grep -q "summary.csv:5: expected 12 fields, got 13" "$TMP/err"
check "error is one line" test "$(wc -l <"$TMP/err")" -eq 1
check "nothing written on bad input" sh -c "! ls -a '$BAD' | grep -q -e report -e plots"
cp "$FIXTURE/summary.csv" "$BAD/summary.csv"
sed -i '7s/,ns,small/,n s,small/; 7s/\(p[0-9]*_ns\),[0-9]*,/\1,12 3,/' "$BAD/summary.csv"
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

# --- compare: a second "kernel" whose preferred-many medians are 10% lower ---
B=$TMP/b/small-tiered-20250302-090000
mkdir -p "$TMP/b" && cp -r "$FIXTURE" "$B"
awk -F, -v OFS=, '$2 == "latency" && $3 == "preferred-many" &&
	($7 == "p50_ns" || $7 ~ /^median_ci95_/) { $8 = int($8 * 0.9) } { print }' \
	"$FIXTURE/summary.csv" >"$B/summary.csv"
sed -i 's/6.12.57-tierlab-3f9c2a1d/6.12.57-tierlab-77aa01be/' "$B/meta.json"
if "$LABTOOL" compare -o "$TMP/cmp" "$RUN" "$B" >/dev/null 2>"$TMP/err"; then
	ok "labtool compare exits 0"
else
	not_ok "labtool compare exits 0"; sed 's/^/# /' "$TMP/err"
fi
check "compare.html/md/csv written" test -s "$TMP/cmp/compare.html" -a -s "$TMP/cmp/compare.md" -a -s "$TMP/cmp/compare.csv"
check "a real difference is called (CIs disjoint)" \
	grep -q '^latency,preferred-many,4k,free,p50_ns,2,11977,10779,-1198,-1609,-788,lower$' "$TMP/cmp/compare.csv"
check "no claim where CIs overlap" grep -q '^latency,bind,4k,free,p50_ns,2,11800,11800,0,-424,424,overlap$' "$TMP/cmp/compare.csv"
check "compare shows both kernels" grep -q '6.12.57-tierlab-77aa01be' "$TMP/cmp/compare.md"
"$LABTOOL" compare "$RUN" >/dev/null 2>&1
check "compare needs two runs (exit 64)" test $? -eq 64

# --- headless Chromium: the page loads and every figure decodes ---
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "# SKIP: chromium not installed (apt-get install chromium)"
	[ $fails = 0 ] && exit 77 || exit 1
fi
chrome() {
	profile=$(mktemp -d "$TMP/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--window-size=1280,2400 "$@" 2>"$TMP/chrome.err"
}
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

echo "# $((n - fails)) passed, $fails failed"
[ $fails = 0 ]
