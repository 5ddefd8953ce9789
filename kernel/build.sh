#!/bin/bash
# Build the lab's guest kernel from Debian's linux-source package plus the
# patch series in kernel/series, cached under a key of everything that goes
# into it.  Prints the path of the cached kernel directory on stdout; progress
# goes to stderr.  A second run with unchanged inputs does no kernel work.
#
# usage: kernel/build.sh [--flavor patched|patched:N|upstream|6.1] [--key|--path] [-q]
#   --flavor patched   linux-source-6.12 + kernel/series (default)
#   --flavor patched:N the same tree with the first N patches of kernel/series
#                      only (each patch must build and boot on its own; built
#                      in a tree of its own, so the full series' stays warm)
#   --flavor upstream  the same tree with no patches (baseline)
#   --flavor 6.1       linux-source-6.1, series not applied (older LTS)
#   --key              print the cache key and exit
#   --path             print the cached kernel's directory (built or not) and exit
#   --tree             make the flavor's work tree hold exactly its patches
#                      (restored and applied only if it holds others), print
#                      the tree's path and exit without building
# env: TIERLAB_CACHE (default /var/cache/tierlab), JOBS (default nproc)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
flavor=patched quiet=0 want_key=0 want_path=0 want_tree=0
while [ $# -gt 0 ]; do
	case $1 in
	--flavor) flavor=${2:?--flavor needs a value}; shift 2 ;;
	--key) want_key=1; shift ;;
	--path) want_path=1; shift ;;
	--tree) want_tree=1; shift ;;
	-q) quiet=1; shift ;;
	-h|--help) sed -n '2,/^set -e/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	*) echo "kernel/build.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

# patched:N -> upto=N (checked against the series below)
upto=
case $flavor in
patched:*)
	upto=${flavor#patched:}
	case $upto in
	'' | *[!0-9]* | 0*) echo "kernel/build.sh: --flavor $flavor: N must be a patch count from 1" >&2; exit 2 ;;
	esac ;;
esac
case $flavor in
patched|patched:*|upstream) srcpkg=linux-source-6.12 ;;
6.1) srcpkg=linux-source-6.1 ;;
*) echo "kernel/build.sh: --flavor: unknown kernel '$flavor' (patched, patched:N, upstream, 6.1)" >&2; exit 2 ;;
esac
tarball=/usr/src/$srcpkg.tar.xz
[ -r "$tarball" ] || { echo "kernel/build.sh: $tarball: missing; install it: apt-get install -y $srcpkg" >&2; exit 1; }

cache=${TIERLAB_CACHE:-/var/cache/tierlab}
jobs=${JOBS:-$(nproc)}
start=$SECONDS
say() { [ "$quiet" = 1 ] || printf '[%4ds] kernel: %s\n' $((SECONDS - start)) "$*" >&2; }

# The series: one patch file of kernel/patches per line; '#' starts a comment.
patches=()
if [ "$flavor" != upstream ] && [ "$flavor" != 6.1 ]; then
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		[ -r "$here/patches/$line" ] || { echo "kernel/series:$lineno: patches/$line: no such patch" >&2; exit 1; }
		patches+=("$here/patches/$line")
	done < "$here/series"
	if [ -n "$upto" ]; then
		[ "$upto" -le ${#patches[@]} ] || {
			echo "kernel/build.sh: --flavor $flavor: kernel/series has ${#patches[@]} patches" >&2; exit 2; }
		if [ "$upto" = ${#patches[@]} ]; then
			flavor=patched upto=	# the whole series
		else
			patches=("${patches[@]:0:$upto}")
		fi
	fi
fi

srcver=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null || stat -c %s-%Y "$tarball")
if [ "$flavor" = patched ]; then
	series_hash=$( { cat "$here/series"; for p in "${patches[@]+"${patches[@]}"}"; do cat "$p"; done; } | sha256sum | cut -c1-8)
	localversion=-tierlab-$series_hash
elif [ -n "$upto" ]; then
	# the names and contents of the patches applied: the part of the series built
	series_hash=$(for p in "${patches[@]}"; do basename "$p"; cat "$p"; done | sha256sum | cut -c1-8)
	localversion=-tierlab-p$upto-$series_hash
else
	series_hash=none
	localversion=-tierlab-$flavor
fi
# Bump when a change to this script changes what it builds: the script
# itself is not hashed, so editing its messages costs no rebuild.
recipe=2
key=$( { echo "$flavor $srcpkg $srcver recipe=$recipe"; echo "$localversion"; cat "$here/lab.config";
	 for p in "${patches[@]+"${patches[@]}"}"; do cat "$p"; done; gcc --version | head -1; } |
	sha256sum | cut -c1-16)
if [ "$want_key" = 1 ]; then echo "$key"; exit 0; fi

# patched:N builds in a tree of its own (build/prefix): sharing the full
# series' tree would rebuild most of it each time the two alternate.
if [ -n "$upto" ]; then name=patched-p$upto tree=prefix; else name=$flavor tree=$flavor; fi
out=$cache/kernels/$name-$key
if [ "$want_path" = 1 ]; then echo "$out"; exit 0; fi
if [ -f "$out/bzImage" ] && [ "$want_tree" = 0 ]; then
	say "cached $out"
	echo "$out"
	exit 0
fi

mkdir -p "$cache/build"
work=$cache/build/$tree
exec 9>"$cache/build/$tree.lock"
flock 9
# Another run may have built it while we waited for the lock.
if [ -f "$out/bzImage" ] && [ "$want_tree" = 0 ]; then echo "$out"; exit 0; fi

src=$work/src obj=$work/obj
if [ ! -f "$src/.tierlab-pristine" ] || [ "$(cat "$src/.tierlab-pristine")" != "$srcver" ]; then
	say "unpacking $tarball (once per source version)"
	rm -rf "$work"
	mkdir -p "$work/unpack"
	tar -C "$work/unpack" -xf "$tarball"
	mv "$work/unpack"/linux-source-* "$src"
	rmdir "$work/unpack"
	# Debian's tarball carries a .gitignore that ignores everything at
	# the top level, hence add -f and clean -x below.
	# A git index of the pristine tree lets every later build restore it in
	# seconds, touching only files an earlier series changed, so make
	# rebuilds only what the new series affects.
	git -C "$src" init -q
	git -C "$src" add -A -f
	git -C "$src" -c user.name=tierlab -c user.email=tierlab@localhost \
		commit -q -m pristine --no-gpg-sign
	echo "$srcver" > "$src/.tierlab-pristine"
	echo .tierlab-pristine >> "$src/.git/info/exclude"
fi

# The record of what obj/ was last built from (kernel/tree-times.sh).
# shellcheck source=kernel/tree-times.sh
. "$here/tree-times.sh"
# shellcheck source=kernel/ccache.sh
. "$here/ccache.sh"
# shellcheck source=kernel/kconfig.sh
. "$here/kconfig.sh"
kernel_ccache_setup "$cache"
built=$work/built
# src-series: the key whose patches the tree holds (none while it changes)
if [ "$want_tree" = 1 ] && [ "$(cat "$work/src-series" 2>/dev/null)" = "$key" ]; then
	echo "$src"
	exit 0
fi
rm -f "$work/src-series"
say "restoring pristine tree"
git -C "$src" reset -q --hard HEAD
git -C "$src" clean -q -fdx -e .tierlab-pristine
for p in "${patches[@]+"${patches[@]}"}"; do
	say "applying $(basename "$p")"
	if ! git -C "$src" apply --whitespace=nowarn "$p" 2>"$work/apply.err"; then
		echo "kernel/build.sh: kernel/patches/$(basename "$p"): does not apply to $srcpkg $srcver:" >&2
		sed 's/^/  /' "$work/apply.err" >&2
		exit 1
	fi
done

echo "$key" > "$work/src-series"
# --tree builds nothing: whoever builds from the tree next restores the
# times its own object directory needs
if [ "$want_tree" = 1 ]; then echo "$src"; exit 0; fi
kept=$(tree_times_restore "$src" "$built") || { echo "kernel/build.sh: cannot set the times of $src's patched files" >&2; exit 1; }
[ "$kept" = 0 ] || say "kept the build times of $kept unchanged patched files"

say "configuring (tinyconfig + kernel/lab.config + olddefconfig)"
mkdir -p "$obj"
log=$work/build.log
: > "$log"
export CCACHE_STATSLOG=$work/ccache.log
rm -f "$CCACHE_STATSLOG"
# The release suffix goes on make's command line, not into .config: there it
# would be in include/generated/autoconf.h, which every file includes, and
# no object of one flavor could be taken from ccache for another.
kmake() { make -C "$src" O="$obj" LOCALVERSION="$localversion" "${KCC[@]+"${KCC[@]}"}" "$@" >>"$log" 2>&1; }
kmake tinyconfig
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$here/lab.config" >>"$log" 2>&1
kmake olddefconfig
# Every line of the fragment must have survived olddefconfig.
kconfig_kept "$here/lab.config" "$obj/.config" || exit 1

say "building bzImage with -j$jobs (log: $log)"
rm -rf "$built"	# obj/ is about to change; saved again once it built
if ! kmake -j"$jobs" bzImage; then
	echo "kernel/build.sh: kernel build failed; last lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit 1
fi

release=$(cat "$obj/include/config/kernel.release")
ccache_stats=$(kernel_ccache_stats "$CCACHE_STATSLOG")
[ ${#KCC[@]} -gt 0 ] || ccache_stats="not used (ccache missing)"
say "ccache: $ccache_stats"
tree_times_save "$src" "$built"
mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$obj/.config" "$out.tmp/config"
cp "$log" "$out.tmp/build.log"
printf '%s\n' "$release" > "$out.tmp/release"
printf 'flavor=%s\nsource=%s %s\nseries_hash=%s\nkey=%s\nbuild_secs=%s\nccache=%s\n' \
	"$flavor" "$srcpkg" "$srcver" "$series_hash" "$key" $((SECONDS - start)) "$ccache_stats" > "$out.tmp/info"
rm -rf "$out"
mv "$out.tmp" "$out"
say "built $release in $((SECONDS - start))s"
echo "$out"
