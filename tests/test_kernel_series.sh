#!/bin/bash
# The series mechanism fails loudly: a patch that does not apply names
# itself, and a fragment option that olddefconfig drops is named.  Runs a
# copy of kernel/ against the shared build tree: neither case compiles, and
# the cached kernels stay as they are (a cache hit never touches the tree).
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
out=$("$tmp/kernel/build.sh" -q 2>&1) && { echo "a lost config option was accepted"; fail=1; }
grep -q "kernel/lab.config: CONFIG_TIERLAB_NO_SUCH_OPTION: wanted 'CONFIG_TIERLAB_NO_SUCH_OPTION=y'" <<<"$out" ||
	{ echo "error does not name the option: $out"; fail=1; }
echo "checked: bad patch and lost option both fail the build by name"
exit $fail
