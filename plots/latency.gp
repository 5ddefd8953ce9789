# Fault-latency percentiles per policy, log y axis.
# labtool report runs: gnuplot -c latency.gp DATA OUT TITLE NCOLS
# DATA: header "percentile" then one quoted column name per policy; one line
# per percentile (p50 p90 p99 p99.9 max), "?" where the run has no value.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 4) { print "usage: gnuplot -c latency.gp DATA OUT TITLE NCOLS"; exit status 2 }
# labtool passes -e timeunit="ns" or "guest instructions" (--clock icount)
if (!exists("timeunit")) timeunit = "ns"
ncols = ARG4 + 0
set datafile missing "?"
set title ARG3
set xlabel "percentile of page-fault latency"
set ylabel "fault latency (".timeunit.", log scale)"
set logscale y
set format y "%.0s%c"
set grid ytics mytics lc rgb "#dddddd"
set key outside right top
set offsets 0.3, 0.3, 0, 0
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot for [i=2:ncols+1] ARG1 using 0:i:xtic(1) with linespoints lw 2 dt i-1 pt i+3 ps 1.2 title columnheader(i)
	unset output
}
