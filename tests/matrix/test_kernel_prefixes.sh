#!/bin/bash
# Each patch of kernel/series builds and boots on its own, and adds what it
# says: the kernel with the first N patches (--kernel patched:N, N = 1 .. all)
# boots on the 2-socket DRAM+PMEM machine and runs mpol-kselftest, where
#   - a check needing nothing of the series passes on every prefix;
#   - a check needing a part of the series passes once the patch adding that
#     part is in, and SKIPs before (the kernel lacks the counter, event or
#     mode flag it uses) -- except the hugetlb checks, which fail between the
#     counters patch and the hugetlb patch (the counters exist but hugetlb
#     allocations are not yet counted: the hugetlb patch is what counts them);
#   - the default overflow lands on the same nodes on every prefix;
#   - the release names the prefix (-tierlab-pN-<hash>), a hash per prefix.
# What each patch adds is read from its file name (below); a patch that
# matches none adds no check and must only break nothing.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT	# KEEP=1: keep each boot's output
fail=0

mapfile -t series < <(sed 's/#.*//; s/[[:space:]]//g; /^$/d' kernel/series)
n=${#series[@]}
[ "$n" -ge 1 ] || { echo "FAIL kernel/series lists no patch"; exit 1; }

part_of() {	# PATCH-FILE -> the part of the series it adds, or nothing
	case $1 in
	*count-hugetlb*) echo hugetlb ;;
	*count-policy-allocation*) echo counters ;;
	*tracepoint*) echo trace ;;
	*MPOL_F_FALLBACK*) echo flags ;;
	esac
}
# check text (start of it, a plain string) -> the part it needs ('-' for none)
checks=(
	"MPOL_F_FALLBACK_* are accepted with MPOL_PREFERRED_MANY|flags"
	"MPOL_F_FALLBACK_* fail with EINVAL with other modes|flags"
	"mpol_pref_many_* rise by the pages placed|counters"
	"per-node mpol_pref_many_* match the per-node placement|counters"
	"mempolicy:mpol_alloc reports every page|trace"
	"mempolicy:mpol_alloc gives each page its pass and start node|trace"
	"local (default): overflow|-"
	"nearest: overflow|flags"
	"tier: overflow|flags"
	"tier: the overflow is traced as the tier pass|flags"
	"three tasks with the three fallback orders at once each get their own|flags"
	"mpol_pref_* match the placement of an MPOL_PREFERRED overflow|counters"
	"a PREFERRED_MANY THP adds 512 pages|trace"
	"hugetlb PREFERRED_MANY hit and fallback are counted|hugetlb"
	"hugetlb MPOL_BIND failure is counted|hugetlb"
	"bulk path: kernel stacks of PREFERRED_MANY clones land on node|-"
	"bulk path: kernel stacks of PREFERRED_MANY clones are counted and traced|trace"
	"a BIND THP fault that falls back to base pages adds no mpol_bind_fail|counters"
	"mempolicy:mpol_alloc reports the BIND THP probes|trace"
)

have=" "
want_placed= hashes=
for k in $(seq 1 "$n"); do
	p=$(part_of "${series[k - 1]}")
	[ -z "$p" ] || have+="$p "
	out=$tmp/p$k.out
	./run-lab.sh -q --kernel "patched:$k" --results "$tmp/p$k" --exec mpol-kselftest \
		topologies/2s-dram-pmem.yaml >"$out" 2>&1
	rc=$?
	meta=$(ls "$tmp/p$k"/*/meta.json 2>/dev/null | head -1)
	release=$(jq -r .kernel_release "$meta" 2>/dev/null)
	placed=$(sed -n 's/^TAP # placement local://p' "$out" | head -1 | grep -o 'node[0-9]*' | tr '\n' ' ')
	echo "# patched:$k (${series[k - 1]%%.patch}): $release, exit $rc, has:$have, default placement: $placed"
	bad=0
	if ! grep -q '^TAP 1\.\.[0-9]' "$out"; then
		echo "FAIL patched:$k: mpol-kselftest did not finish (boot or kernel failure?):"
		tail -n 15 "$out" | sed 's/^/  /'
		fail=1
		continue
	fi
	expect_rc=0
	for c in "${checks[@]}"; do
		text=${c%|*} part=${c##*|}
		line=
		while IFS= read -r l; do
			d=${l#TAP ok * - } d=${d#TAP not ok * - }
			[[ $d == "$text"* ]] && { line=$l; break; }
		done < <(grep -E '^TAP (not )?ok [0-9]+ - ' "$out")
		if [ "$part" = - ] || [[ $have == *" $part "* ]]; then
			want=pass
		elif [ "$part" = hugetlb ] && [[ $have == *" counters "* ]]; then
			want=fail expect_rc=4
		else
			want=skip
		fi
		case $want:$line in
		pass:"TAP ok "*"# SKIP"* | skip:"TAP ok "*"# SKIP"*) got=skip ;;
		*:"TAP ok "*) got=pass ;;
		*:"TAP not ok "*) got=fail ;;
		*) got=missing ;;
		esac
		if [ "$got" != "$want" ]; then
			echo "FAIL patched:$k: '$text' should $want, got $got: ${line:-no such line}"
			bad=1
		fi
	done
	other=$(grep '^TAP not ok' "$out" | grep -v -E 'hugetlb (PREFERRED_MANY|MPOL_BIND)')
	[ -z "$other" ] || { echo "FAIL patched:$k: unexpected failures:"; echo "$other"; bad=1; }
	[ "$rc" = "$expect_rc" ] || { echo "FAIL patched:$k: exit $rc, want $expect_rc"; bad=1; }
	[ -n "$placed" ] || { echo "FAIL patched:$k: no default placement line"; bad=1; }
	if [ -z "$want_placed" ]; then
		want_placed=$placed
	elif [ "$placed" != "$want_placed" ]; then
		echo "FAIL patched:$k: default overflow on '$placed', patched:1 on '$want_placed'"
		bad=1
	fi
	hash=$(jq -r .series_hash "$meta" 2>/dev/null)
	flavor=$(jq -r .kernel_flavor "$meta" 2>/dev/null)
	if [ "$k" -lt "$n" ]; then
		[[ $release == 6.12.*-tierlab-p$k-"$hash" ]] || { echo "FAIL patched:$k: release '$release', hash '$hash'"; bad=1; }
		[ "$flavor" = "patched:$k" ] || { echo "FAIL patched:$k: meta.json kernel_flavor '$flavor'"; bad=1; }
	else
		[[ $release == 6.12.*-tierlab-"$hash" ]] || { echo "FAIL patched:$k (all): release '$release', hash '$hash'"; bad=1; }
		[ "$flavor" = patched ] || { echo "FAIL patched:$k (all): meta.json kernel_flavor '$flavor'"; bad=1; }
	fi
	case " $hashes " in *" $hash "*) echo "FAIL patched:$k: series hash $hash seen before"; bad=1 ;; esac
	hashes+=" $hash"
	if [ "$bad" = 1 ]; then
		sed -n 's/^TAP //p' "$out" | sed 's/^/  /'
		fail=1
	fi
done
[ "$fail" = 0 ] && echo "ok: each of the $n patches builds, boots and adds its part; default placement '$want_placed' throughout"
exit $fail
