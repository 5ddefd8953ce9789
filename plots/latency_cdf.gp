# Fault-latency CDF per policy from the raw histograms, log x axis.
# labtool report runs: gnuplot -c latency_cdf.gp DATA OUT TITLE NBLOCKS
# DATA: one block per policy (blocks separated by two blank lines), each
# starting with a header line "label" "" and then "ns percent" lines: the
# bucket's lower bound and the share of faults in buckets up to it.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 4) { print "usage: gnuplot -c latency_cdf.gp DATA OUT TITLE NBLOCKS"; exit status 2 }
# labtool passes -e timeunit="ns" or "guest instructions" (--clock icount)
if (!exists("timeunit")) timeunit = "ns"
nblocks = ARG4 + 0
set title ARG3
set xlabel "first-touch fault latency (".timeunit.", log scale)"
set ylabel "faults at or below (%)"
set logscale x
set format x "%.0s%c"
set yrange [0:100]
set ytics 10
set grid xtics mxtics ytics lc rgb "#dddddd"
set key inside right bottom opaque box samplen 3
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot for [i=0:nblocks-1] ARG1 index i using 1:2 with steps lw 2 dt i%4+1 title columnheader(1)
	unset output
}
