# Modeled access cost per policy: the read latency and bandwidth a policy's
# placement would see, from the HMAT figures (QEMU does not slow nodes down,
# so this is computed, not measured).
# gnuplot -c model.gp DATA OUT TITLE
# DATA: "# policy latency_ns bandwidth_mbps" comment, then "label" ns MB/s.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 3) { print "usage: gnuplot -c model.gp DATA OUT TITLE"; exit status 2 }
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
	set title "modeled read latency"
	set ylabel "read latency (ns, from HMAT)"
	plot ARG1 using 0:2:xtic(1) with boxes lc rgb "#e69138" notitle, \
	     '' using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.7 notitle
	set title "modeled read bandwidth"
	set ylabel "read bandwidth (MB/s, from HMAT)"
	plot ARG1 using 0:3:xtic(1) with boxes lc rgb "#3d85c6" notitle, \
	     '' using 0:3:(sprintf("%.0f", $3)) with labels offset 0,0.7 notitle
	unset multiplot
	unset output
}
