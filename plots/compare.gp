# labtool compare's figure: each median fault latency with an interval in
# both runs, as "run k - run 1" in percent of run 1's median, with the
# bracket of the difference as a horizontal bar.  A bar that crosses 0 is
# no claimed difference (the intervals overlap).
# gnuplot -c compare.gp DATA OUT TITLE ROWS
# DATA: "# ..." comment, then: "label" delta_pct lo_pct hi_pct colour, the
# colour a decimal RGB (red higher, green lower, grey overlap).
# Both SVG and PNG are written (OUT.svg, OUT.png).
if (ARGC < 4) { print "usage: gnuplot -c compare.gp DATA OUT TITLE ROWS"; exit status 2 }
rows = int(ARG4)
height = 170 + 26 * rows
set title ARG3
set xlabel "run k − run 1, % of run 1's median (bar: bracket of the difference)"
set yrange [rows - 0.4:-0.6]
set ytics nomirror
set grid xtics lc rgb "#dddddd"
set offsets graph 0.05, graph 0.05, 0, 0
set arrow 1 from first 0, graph 0 to first 0, graph 1 nohead lc rgb "#555555" dt 2
set key below horizontal
set bmargin 6
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,height noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,height noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot ARG1 using 2:0:3:4:5:ytic(1) with xerrorbars lc rgb variable pt 7 ps 1.2 lw 2 notitle, \
	     keyentry with points lc rgb "#c0392b" pt 7 title "higher", \
	     keyentry with points lc rgb "#1e8449" pt 7 title "lower", \
	     keyentry with points lc rgb "#7f8c8d" pt 7 title "overlap: no claim"
	unset output
}
