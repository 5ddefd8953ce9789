# Modeled access cost per policy: the read latency and bandwidth a policy's
# placement would see, from the HMAT figures (QEMU does not slow nodes down,
# so this is a model, not a measurement; bench/costmodel.h has the formulas).
# gnuplot -c model.gp DATA OUT TITLE [ROWS HAVE_LATENCY HAVE_BANDWIDTH]
# DATA: "# policy latency_ns bandwidth_serial_mbps bandwidth_parallel_bound_mbps"
# comment, then "label" ns MB/s MB/s: latency page-weighted; bandwidth serial
# (time-weighted, the bars) with the parallel bound (the marks) beside it.
# HAVE_*: 0 when that column has no value (an older run's rows): the panel
# says so, as gnuplot draws nothing from a column without a valid point.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 3) { print "usage: gnuplot -c model.gp DATA OUT TITLE [ROWS HAVE_LATENCY HAVE_BANDWIDTH]"; exit status 2 }
rows = ARGC >= 4 ? int(ARG4) : 1
have_lat = ARGC >= 5 ? ARG5 ne "0" : 1
have_bw = ARGC >= 6 ? ARG6 ne "0" : 1
set datafile missing "?"
set style fill solid 0.7 border lc rgb "#555555"
set boxwidth 0.6
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set xtics rotate by -30
set offsets 0.5, 0.5, graph 0.1, 0
set bmargin 10
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	set multiplot layout 1,2 title ARG3
	set title "model: read latency (page-weighted)"
	set ylabel "modeled read latency (ns, from HMAT)"
	if (have_lat) {
		plot ARG1 using 0:2:xtic(1) with boxes lc rgb "#e69138" notitle, \
		     '' using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.7 notitle
	} else {
		set label 1 "no modeled latency in this run" at graph 0.5, 0.5 center
		unset xtics; unset ytics
		plot [-0.5:rows - 0.5] [0:1] NaN notitle
		unset label 1
		set xtics rotate by -30; set ytics
	}
	set title "model: read bandwidth (serial, time-weighted)"
	set ylabel "modeled read bandwidth (MB/s, from HMAT)"
	if (have_bw) {
		set key top left
		plot ARG1 using 0:3:xtic(1) with boxes lc rgb "#3d85c6" title "serial (time-weighted)", \
		     '' using 0:3:(sprintf("%.0f", $3)) with labels offset 0,0.7 notitle, \
		     '' using 0:4 with points pt 9 ps 1.6 lc rgb "#cc0000" title "parallel bound", \
		     '' using 0:4:($4 > $3 ? sprintf("%.0f", $4) : "") with labels offset 0,0.9 tc rgb "#cc0000" notitle
		unset key
	} else {
		set label 1 "no modeled bandwidth in this run" at graph 0.5, 0.5 center
		unset xtics; unset ytics
		plot [-0.5:rows - 0.5] [0:1] NaN notitle
		unset label 1
		set xtics rotate by -30; set ytics
	}
	unset multiplot
	unset output
}
