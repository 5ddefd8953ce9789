#!/bin/bash
# The series mechanism fails loudly: a patch that does not apply names
# itself, and a fragment option that olddefconfig drops is named.  Runs a
# copy of kernel/ against the shared build tree: neither case compiles, and
# the cached kernels stay as they are (a cache hit never touches the tree).
# The series passes the tree's checkpatch.pl --strict (kernel/checkpatch.sh),
# and the check fails on a patch with an ERROR or an unjustified CHECK;
# --flavor patched:N rejects an N the series does not have.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r kernel "$tmp/kernel"
mkdir -p "$tmp/kernel/patches"
fail=0

cat > "$tmp/kernel/patches/9999-does-not-apply.patch" <<'PATCH'
--- a/mm/mempolicy.c
+++ b/mm/mempolicy.c
@@ -1,3 +1,3 @@
-this line is not in mm/mempolicy.c
+nor is this one
 context
 context
PATCH
echo 9999-does-not-apply.patch >> "$tmp/kernel/series"
out=$("$tmp/kernel/build.sh" -q 2>&1) && { echo "a patch that does not apply was accepted"; fail=1; }
grep -q 'kernel/patches/9999-does-not-apply.patch: does not apply' <<<"$out" ||
	{ echo "error does not name the patch: $out"; fail=1; }

sed -i '/9999-does-not-apply/d' "$tmp/kernel/series"
rm "$tmp/kernel/patches/9999-does-not-apply.patch"
echo "CONFIG_TIERLAB_NO_SUCH_OPTION=y" >> "$tmp/kernel/lab.config"
line=$(wc -l < "$tmp/kernel/lab.config")
out=$("$tmp/kernel/build.sh" -q 2>&1) && { echo "a lost config option was accepted"; fail=1; }
grep -q "^kernel/lab.config:$line: CONFIG_TIERLAB_NO_SUCH_OPTION: wanted 'CONFIG_TIERLAB_NO_SUCH_OPTION=y'" <<<"$out" ||
	{ echo "error does not name the option: $out"; fail=1; }

# checkpatch: the series is clean; a trailing blank and a CHECK whose
# justification is cut from the commit message both fail, by name.
out=$(kernel/checkpatch.sh 2>&1) || { echo "kernel/checkpatch.sh fails on the series:"; echo "$out"; fail=1; }
echo "$out"
p4=$(ls kernel/patches/0004-*.patch)
sed '/^checkpatch --strict reports/,/^include\/trace\/events\/.$/d' "$p4" > "$tmp/0004-unjustified.patch"
cmp -s "$p4" "$tmp/0004-unjustified.patch" && { echo "could not cut the justification out of $p4"; fail=1; }
out=$(kernel/checkpatch.sh "$tmp/0004-unjustified.patch" 2>&1) && { echo "an unjustified CHECK passed"; fail=1; }
grep -q "CHECK:OPEN_ENDED_LINE: Lines should not end with a '('" <<<"$out" ||
	{ echo "the unjustified CHECK is not named: $out"; fail=1; }
awk '/^\+/ && !done && /;$/ { print $0 "  "; done = 1; next } { print }' \
	kernel/patches/0002-*.patch > "$tmp/0002-trailing.patch"
out=$(kernel/checkpatch.sh "$tmp/0002-trailing.patch" 2>&1) && { echo "a trailing blank passed"; fail=1; }
grep -q "ERROR:TRAILING_WHITESPACE" <<<"$out" || { echo "the trailing blank is not named: $out"; fail=1; }
# checkpatch.pl dying (here: perl cannot load a module) is a failure, not a clean patch
out=$(PERL5OPT=-MTierlabNoSuchModule kernel/checkpatch.sh "$p4" 2>&1) && { echo "a checkpatch that did not run passed"; fail=1; }
grep -q "checkpatch.pl did not run to the end" <<<"$out" || { echo "a dead checkpatch is not said: $out"; fail=1; }

n=$(grep -c '^[^#[:space:]]' kernel/series)
out=$(kernel/build.sh --flavor "patched:$((n + 1))" --key 2>&1) && { echo "patched:$((n + 1)) accepted"; fail=1; }
grep -q "kernel/series has $n patches" <<<"$out" || { echo "patched:$((n + 1)): $out"; fail=1; }
[ "$(kernel/build.sh --flavor "patched:$n" --key)" = "$(kernel/build.sh --key)" ] ||
	{ echo "patched:$n is not the whole series"; fail=1; }
[ "$(kernel/build.sh --flavor patched:1 --key)" != "$(kernel/build.sh --key)" ] ||
	{ echo "patched:1 has the whole series' key"; fail=1; }
echo "checked: bad patch and lost option both fail the build by name; checkpatch is judged; patched:N is checked"
exit $fail
