# Fallback-order comparison: one stacked bar per (policy, per-task fallback order),
# one segment per NUMA node: where pages go once the preferred nodes fill.
# gnuplot -c fallback_order.gp DATA OUT TITLE NNODES
# DATA: header "bar" "node 0 (tier 4)" ...; then "label" percent percent ...
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 4) { print "usage: gnuplot -c fallback_order.gp DATA OUT TITLE NNODES"; exit status 2 }
ncols = ARG4 + 0
set datafile missing "?"
set title ARG3
set xlabel "policy (node set) · fallback order (a flag of each task's policy)"
set ylabel "share of the policy's pages (%)"
set yrange [0:100]
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border lc rgb "#555555"
set boxwidth 0.7
set grid ytics lc rgb "#dddddd"
set xtics rotate by -20
set key outside right top title "NUMA node"
set bmargin 8
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot for [i=2:ncols+1] ARG1 using i:xtic(1) title columnheader(i)
	unset output
}
