#!/bin/bash
# The series builds in configurations the lab kernel does not use: tracing
# off, hugetlbfs off, NUMA off (kernel/check-configs.sh links vmlinux of the
# patched tree in each).  A stub of a patch that does not compile, or a call
# to a function such a configuration does not build, fails here: shown with
# a copy of kernel/ whose extra patch calls, from mm/page_alloc.c, a function
# that only mm/mempolicy.c (CONFIG_NUMA) defines -- nonuma must fail to link.
# The copy builds no bzImage of its own and builds in variant-nonuma-fault,
# so the variants' object directories keep their records and the next run
# rebuilds nothing there.  And a base the kernel cannot configure (an
# option whose dependency is missing) fails by its file, line and option.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
cache=${TIERLAB_CACHE:-/var/cache/tierlab}
cleanup() {
	# the shared tree gets the series back
	kernel/build.sh --tree -q >/dev/null || echo "FAIL could not restore the patched tree"
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"	# KEEP=1: keep the copy and its patch
}
trap cleanup EXIT
out=$(kernel/check-configs.sh 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] || { echo "FAIL kernel/check-configs.sh exited $rc"; exit 1; }
[ "$(grep -c ': ok, ' <<<"$out")" = 3 ] || { echo "FAIL not every variant built"; exit 1; }
# each variant really turned its option off
grep -q '^notrace: ok.*(on: .*TRACEPOINTS' <<<"$out" && { echo "FAIL notrace kept TRACEPOINTS"; exit 1; }
grep -q '^nohugetlb: ok.*(on: .*HUGETLB_PAGE' <<<"$out" && { echo "FAIL nohugetlb kept HUGETLB_PAGE"; exit 1; }
grep -q '^nonuma: ok.*(on: .*NUMA' <<<"$out" && { echo "FAIL nonuma kept NUMA"; exit 1; }

# a NUMA-only definition called from code every configuration builds
src=$(kernel/build.sh --tree -q) || { echo "FAIL no patched tree"; exit 1; }
cp -r kernel "$tmp/kernel"
mkdir -p "$tmp/a/mm" "$tmp/b/mm"
for f in mempolicy.c page_alloc.c; do cp "$src/mm/$f" "$tmp/a/mm/$f"; cp "$src/mm/$f" "$tmp/b/mm/$f"; done
printf '\nint tierlab_numa_only(void)\n{\n\treturn 0;\n}\n' >>"$tmp/b/mm/mempolicy.c"
printf '\nint tierlab_numa_only(void);\nstatic int __init tierlab_probe(void)\n{\n\treturn tierlab_numa_only();\n}\nlate_initcall(tierlab_probe);\n' \
	>>"$tmp/b/mm/page_alloc.c"
(cd "$tmp" && { diff -u a/mm/mempolicy.c b/mm/mempolicy.c; diff -u a/mm/page_alloc.c b/mm/page_alloc.c; }) \
	>"$tmp/kernel/patches/9999-numa-only-call.patch"
echo 9999-numa-only-call.patch >>"$tmp/kernel/series"
out=$("$tmp/kernel/check-configs.sh" --suffix fault nonuma 2>&1) && { echo "FAIL a call to a NUMA-only function linked without NUMA"; echo "$out"; exit 1; }
echo "$out"
grep -q "undefined reference to \`tierlab_numa_only'" <<<"$out" ||
	{ echo "FAIL the link failure is not named"; exit 1; }
[ -d "$cache/build/patched/variant-nonuma-fault" ] && [ -d "$cache/build/patched/variant-nonuma.built" ] ||
	{ echo "FAIL the link fault did not build apart, or took nonuma's record"; exit 1; }
[ ! -e "$cache/kernels/patched-$("$tmp/kernel/build.sh" --key)" ] ||
	{ echo "FAIL the link fault built a kernel of its own"; exit 1; }

# an option olddefconfig must drop (its dependency, ACPI, is not in the base)
rm "$tmp/kernel/patches/9999-numa-only-call.patch"
sed -i '/^9999-numa-only-call.patch$/d' "$tmp/kernel/series"
echo CONFIG_ACPI_HMAT=y >>"$tmp/kernel/variant.config"
line=$(wc -l <"$tmp/kernel/variant.config")
out=$("$tmp/kernel/check-configs.sh" --suffix badbase notrace 2>&1) && { echo "FAIL a base olddefconfig cannot keep configured"; echo "$out"; exit 1; }
echo "$out"
grep -q "^  kernel/variant.config:$line: CONFIG_ACPI_HMAT: wanted 'CONFIG_ACPI_HMAT=y', olddefconfig gave 'unset'" <<<"$out" ||
	{ echo "FAIL the lost option is not named by file and line"; exit 1; }
rm -rf "$cache/build/patched/variant-notrace-badbase"*
echo "ok: all three variants link; a NUMA-only call fails nonuma's link, by name; a lost base option, by line"
exit 0
