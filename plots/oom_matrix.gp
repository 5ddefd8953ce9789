# OOM outcome matrix: policy (rows) x page size / scenario (columns), each
# cell coloured by how the allocation ended.
# gnuplot -c oom_matrix.gp DATA OUT TITLE NX NY
# DATA: "# x y colour label xtic ytic" comment, then one line per cell:
#   x y <colour as a decimal 0xRRGGBB> "outcome, MiB got/asked" "pagesize[/scenario]" "policy"
# Both SVG and PNG are written (OUT.svg, OUT.png); noenhanced keeps "_" in
# names from files literal.
if (ARGC < 5) { print "usage: gnuplot -c oom_matrix.gp DATA OUT TITLE NX NY"; exit status 2 }
nx = ARG4 + 0
ny = ARG5 + 0
set title ARG3
set xlabel "page size (/ scenario)"
set ylabel "policy (node set)"
set xrange [-0.5:nx-0.5]
set yrange [ny-0.5:-0.5]
set xtics rotate by -30 scale 0
set ytics scale 0
set style fill solid 1.0 border lc rgb "#ffffff"
set key outside right top title "outcome"
set lmargin 30
set bmargin 8
do for [fmt in "svg png"] {
	if (fmt eq "svg") {
		set terminal svg size 960,540 noenhanced font "DejaVu Sans,11" background "#ffffff"
	} else {
		set terminal pngcairo size 960,540 noenhanced font "DejaVu Sans,10" background "#ffffff"
	}
	set output ARG2.".".fmt
	plot ARG1 using 1:2:(0.5):(0.5):3:xtic(5):ytic(6) with boxxyerror lc rgb variable notitle, \
	     '' using 1:2:4 with labels font ",9" notitle, \
	     keyentry with boxes lc rgb "#81c784" title "completed", \
	     keyentry with boxes lc rgb "#ffd54f" title "setup_error, efault", \
	     keyentry with boxes lc rgb "#ffb74d" title "sigbus, sigsegv", \
	     keyentry with boxes lc rgb "#e57373" title "oom_killed, killed", \
	     keyentry with boxes lc rgb "#b39ddb" title "timeout, error", \
	     keyentry with boxes lc rgb "#bdbdbd" title "other"
	unset output
}
