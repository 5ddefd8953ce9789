# Median fault latency per policy over boots, with the interval of that
# median over boots and a strip of each boot's own value.
# gnuplot -c latency_ci.gp DATA OUT TITLE [KEY [NBOOTS]]
# DATA: a "#" comment, then: "label" p50 lo hi v1 .. vN ("?" = none).
# KEY names the interval (its coverage is below 95 % with few boots);
# NBOOTS is the most boots a line has.
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 3) { print "usage: gnuplot -c latency_ci.gp DATA OUT TITLE [KEY [NBOOTS]]"; exit status 2 }
# labtool passes -e timeunit="ns" or "guest instructions" (--clock icount)
if (!exists("timeunit")) timeunit = "ns"
keytitle = ARGC >= 4 ? ARG4 : "p50 with the interval of the median"
nboots = ARGC >= 5 ? ARG5 + 0 : 0
set datafile missing "?"
set title ARG3
set xlabel "policy (node set)"
set ylabel "median fault latency (".timeunit.")"
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set xtics rotate by -20
set offsets 0.5, 0.5, 0, 0
set key below
set bmargin 8
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot ARG1 using 0:2:3:4:xtic(1) with yerrorbars lc rgb "#1f4e79" lw 2 pt 7 ps 1.2 title keytitle, \
	     '' using 0:2 with points lc rgb "#1f4e79" pt 7 ps 1.2 notitle, \
	     for [j=5:4+nboots] '' using ($0 + 0.15):j with points lc rgb "#c0392b" pt 6 ps 1.0 \
		title (j == 5 ? "each boot" : "")
	unset output
}
