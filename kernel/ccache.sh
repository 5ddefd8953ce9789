# Sourced by kernel/build.sh and kernel/check-configs.sh: one compiler cache
# for every kernel the lab builds, so that the objects the patched kernel,
# upstream, each prefix of the series and each configuration variant have
# in common are compiled once.
#
# Every tree and object directory lives at the same depth under
# $TIERLAB_CACHE/build (<tree>/src, <tree>/obj, <tree>/variant-<v>), and the
# kernel compiles from the object directory, so with base_dir there ccache
# rewrites the absolute source paths of an out-of-tree build to "../src/..."
# -- the same words for every tree -- and two trees' identical files hit.
# The kernel builds without debug information, so the working directory
# need not be hashed (hash_dir off).  Include files are never changed during
# a compile (the trees are restored and patched before make starts), so
# their times need not hold direct mode back.  Dependency files come back
# with the same relative paths, which resolve in every object directory.
#
# kernel_ccache_setup CACHE: exports the settings; sets KCC to the make
#   arguments that route CC and HOSTCC through ccache (empty without it)
# kernel_ccache_stats STATSLOG: "H hits (D direct) of N compiles (P %)" for one build

kernel_ccache_setup() {
	KCC=()
	command -v ccache >/dev/null || return 0
	export CCACHE_DIR=$1/ccache CCACHE_BASEDIR=$1/build CCACHE_NOHASHDIR=1
	export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
	KCC=("CC=ccache gcc" "HOSTCC=ccache gcc")
}

kernel_ccache_stats() {
	[ -s "$1" ] || { echo "no compiles"; return 0; }
	# a direct hit costs a hash of the sources; a preprocessed one runs cpp
	awk '$1 == "direct_cache_hit" { h++; d++ }
	     $1 == "preprocessed_cache_hit" { h++ }
	     $1 == "cache_miss" { m++ }
	     END { n = h + m; printf "%d hits (%d direct) of %d compiles (%.1f %%)\n", h, d, n, n ? 100 * h / n : 0 }' "$1"
}
