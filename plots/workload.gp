# One workload metric (fio, stress-ng, ...) per policy, as bars.
# gnuplot -c workload.gp DATA OUT TITLE YLABEL
# DATA: "# policy value" comment, then "label" value.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 4) { print "usage: gnuplot -c workload.gp DATA OUT TITLE YLABEL"; exit status 2 }
set datafile missing "?"
set title ARG3
set xlabel "policy (node set) page size/scenario"
set ylabel ARG4
set style fill solid 0.7 border lc rgb "#555555"
set boxwidth 0.6
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set xtics rotate by -20
set offsets 0.5, 0.5, graph 0.1, 0
set bmargin 8
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot ARG1 using 0:2:xtic(1) with boxes lc rgb "#6aa84f" notitle, \
	     '' using 0:2:(sprintf("%.4g", $2)) with labels offset 0,0.7 notitle
	unset output
}
