# Sourced by kernel/build.sh and kernel/check-configs.sh: keeping make's
# view of a shared, re-patched source tree right for each object directory.
#
# Restoring a tree to pristine and applying a series again gives every
# patched file a new mtime, so make would rebuild most of the kernel for a
# one-line change to a header.  So each object directory keeps a record: the
# series' files as its last build compiled them, copies with their mtimes.
# Before the next build into that directory, a series file whose content is
# the recorded one gets the recorded mtime back (its objects are current),
# and every other series file gets the current time (its objects are not,
# whatever mtime an earlier build into another directory left it).  Several
# object directories can share a tree this way (the kernel's and the
# configuration variants'): the caller holds the tree's lock from the
# restore to the end of the build, and removes the record before make
# compiles anything (a build that fails or is killed half-way leaves objects
# the record does not describe) -- tree_times_save writes it anew after a
# build that succeeded.

# tree_series_files SRC: the files the applied series changed or added
# (not those it deleted)
tree_series_files() {
	{ git -C "$1" diff --name-only --diff-filter=d HEAD; git -C "$1" ls-files --others; } |
		{ grep -vx '.tierlab-pristine' || true; } | sort -u
}

# tree_times_restore SRC RECORD: prints how many files kept their times
tree_times_restore() {
	local src=$1 rec=$2 f kept=0
	while IFS= read -r f; do
		if [ -f "$rec/$f" ] && cmp -s "$rec/$f" "$src/$f"; then
			touch -r "$rec/$f" "$src/$f" || return 1
			kept=$((kept + 1))
		else
			touch "$src/$f" || return 1
		fi
	done < <(tree_series_files "$src")
	echo "$kept"
}

# tree_times_save SRC RECORD: after a build that succeeded
tree_times_save() {
	local src=$1 rec=$2 f
	rm -rf "$rec"
	mkdir -p "$rec"
	tree_series_files "$src" | while IFS= read -r f; do
		mkdir -p "$rec/$(dirname "$f")"
		cp -p "$src/$f" "$rec/$f"
	done
}
