#!/bin/bash
# Run the kernel tree's own scripts/checkpatch.pl --strict on every patch of
# kernel/series (or on the PATCH files given), the way a maintainer would.
# A patch passes when checkpatch reports no ERROR and no WARNING, and every
# CHECK it reports is justified in the patch's commit message: the CHECK's
# text (e.g. "Lines should not end with a '('") must appear there, in any
# line wrapping.  Prints one line per patch (and the findings of a patch that
# fails); exit 0 when all pass, 1 otherwise, 2 on bad usage.
#
# usage: kernel/checkpatch.sh [PATCH...]
# env: TIERLAB_CACHE (default /var/cache/tierlab): the 6.12 tree is the one
#      kernel/build.sh --tree unpacks and patches there (nothing is built)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

patches=("$@")
if [ ${#patches[@]} = 0 ]; then
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -z "$line" ] || patches+=("$here/patches/$line")
	done < "$here/series"
fi
for p in "${patches[@]}"; do
	[ -r "$p" ] || { echo "kernel/checkpatch.sh: $p: no such readable patch" >&2; exit 2; }
done

# The patched 6.12 tree (unpacked, not built, if it is not there yet):
# checkpatch reads the tree it runs in, as upstream's does.
src=$("$here/build.sh" --tree -q) || exit 1
[ -f "$src/scripts/checkpatch.pl" ] || { echo "kernel/checkpatch.sh: $src/scripts/checkpatch.pl: missing" >&2; exit 1; }

fail=0
for p in "${patches[@]}"; do
	name=$(basename "$p")
	abs=$(realpath "$p")
	# checkpatch exits 1 on any finding, CHECKs included: judge its output;
	# any other status, or 1 with no finding, is checkpatch itself failing
	rc=0
	out=$(cd "$src" && perl scripts/checkpatch.pl --strict --no-summary --terse --show-types "$abs" 2>&1) || rc=$?
	errors=$(grep -c ': ERROR:' <<<"$out" || true)
	warnings=$(grep -c ': WARNING:' <<<"$out" || true)
	if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && ! grep -qE ': (ERROR|WARNING|CHECK):' <<<"$out"; }; then
		echo "$name: FAILED: checkpatch.pl did not run to the end (exit $rc):"
		sed 's/^/  /' <<<"$out" | head -n 10
		fail=1
		continue
	fi
	# the commit message: from the Subject to the first '---', on one line
	message=$(sed -n '/^Subject:/,/^---$/p' "$p" | tr -s ' \t\n' ' ')
	unjustified=()
	while IFS= read -r check; do
		[ -n "$check" ] || continue
		# "FILE:LINE: CHECK:TYPE: text" -> text
		text=${check#*: CHECK:}
		text=${text#*: }
		grep -qF -- "$text" <<<"$message" || unjustified+=("$check")
	done < <(grep ': CHECK:' <<<"$out" || true)
	checks=$(grep -c ': CHECK:' <<<"$out" || true)
	if [ "$errors" = 0 ] && [ "$warnings" = 0 ] && [ ${#unjustified[@]} = 0 ]; then
		echo "$name: ok ($checks CHECK(s), each justified in the commit message)"
	else
		echo "$name: FAILED: $errors error(s), $warnings warning(s), ${#unjustified[@]} CHECK(s) not justified in the commit message"
		{ grep -E ': (ERROR|WARNING):' <<<"$out" || true; printf '%s\n' "${unjustified[@]+"${unjustified[@]}"}"; } |
			sed '/^$/d; s/^/  /'
		fail=1
	fi
done
exit $fail
