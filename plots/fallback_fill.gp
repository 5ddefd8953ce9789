# Fallback fill curves: share of pages on the preferred nodes while the
# benchmark faults more and more memory, one line per policy.
# gnuplot -c fallback_fill.gp DATA OUT TITLE NCOLS
# DATA: header "MiB" then one column name per policy; x in MiB, y in percent.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 4) { print "usage: gnuplot -c fallback_fill.gp DATA OUT TITLE NCOLS"; exit status 2 }
ncols = ARG4 + 0
set datafile missing "?"
set title ARG3
set xlabel "memory faulted so far (MiB)"
set ylabel "pages on the preferred nodes (%)"
set yrange [0:105]
set grid lc rgb "#dddddd"
set key outside right top
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot for [i=2:ncols+1] ARG1 using 1:i with linespoints lw 2 dt i-1 pt i+3 ps 1.2 pi 8 title columnheader(i)
	unset output
}
