#!/bin/sh
# labtool check-guest: a guest view that matches a topology within the
# documented tolerances passes; each kind of difference fails with exit 1
# and one exact line naming node and field; the guest views recorded in
# real boots pass.  Also runs topoprobe on this
# host if it is built (any machine must give one well-formed TOPO line per
# node).  Exit 0 pass, 1 fail.
LABTOOL=${LABTOOL:-build/host/labtool}
PROBE=${PROBE:-build/guest/topoprobe}
[ -x "$LABTOOL" ] || { echo "FAIL: $LABTOOL not built (make host)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# guest view = the file's promise, MemTotal a bit lower, tier ids shifted
for topo in topologies/*.yaml; do
	"$LABTOOL" expect --all "$topo" | awk -F, 'BEGIN { OFS = "," }
		NR > 1 && $3 > 0 { $3 = $3 - $3 / 64 - 20; $3 = int($3) }
		NR > 1 && $8 != "-" { $8 = $8 + 1 } { print }' >"$tmp/guest.csv"
	if ! "$LABTOOL" check-guest "$topo" "$tmp/guest.csv" >"$tmp/out" 2>&1; then
		echo "FAIL: $topo: a matching guest view was refused:"
		sed 's/^/    /' "$tmp/out"
		fail=1
	fi
done

# mutate NAME SED-SCRIPT EXPECTED-LINE: one difference in dram-pmem's view
mutate() {
	"$LABTOOL" expect --all topologies/dram-pmem.yaml | sed "$2" >"$tmp/bad.csv"
	"$LABTOOL" check-guest topologies/dram-pmem.yaml "$tmp/bad.csv" \
		>"$tmp/out" 2>/dev/null
	rc=$?
	if [ "$rc" -ne 1 ] || [ "$(cat "$tmp/out")" != "$3" ]; then
		echo "FAIL: $1: exit $rc, output:"
		sed 's/^/    /' "$tmp/out"
		echo "  want: $3"
		fail=1
	fi
}
mutate latency 's/^1,-,1024,305,/1,-,1024,300,/' \
	'node 1: read_latency_ns: guest has 300, file says 305'
mutate bandwidth 's/,39400,13900,/,39400,-,/' \
	'node 1: write_bandwidth_mbps: guest has -, file says 13900'
mutate cpus 's/^0,0-1,/0,0,/' 'node 0: cpus: guest has 0, file says 0-1'
mutate memtotal 's/^1,-,1024,/1,-,900,/' \
	'node 1: mem_mib: guest has 900, file says 1024 (accepted 928-1024)'
mutate memtoobig 's/^1,-,1024,/1,-,1025,/' \
	'node 1: mem_mib: guest has 1025, file says 1024 (accepted 928-1024)'
mutate tier 's/^1,\(.*\),31,/1,\1,4,/' \
	"node 1: tier: guest has 4 against node 0's 4, file expects 31 against 4 (a slower tier)"
# the same tier difference from a kernel without HMAT-based tiers (6.1):
# not a difference, said so; from 6.12 it is one
"$LABTOOL" expect --all topologies/dram-pmem.yaml | sed 's/^1,\(.*\),31,/1,\1,4,/' >"$tmp/bad.csv"
out=$("$LABTOOL" check-guest topologies/dram-pmem.yaml "$tmp/bad.csv" --kernel-release 6.1.192-tierlab-6.1 2>&1)
[ $? = 0 ] && [ "$out" = "memory tiers not compared: kernel 6.1.192-tierlab-6.1 predates HMAT-based tiers for boot-time nodes (6.10)" ] ||
	{ echo "FAIL: tiers on 6.1: $out"; fail=1; }
"$LABTOOL" check-guest topologies/dram-pmem.yaml "$tmp/bad.csv" --kernel-release 6.12.118-tierlab-x >/dev/null 2>&1
[ $? = 1 ] || { echo "FAIL: tiers on 6.12 were not compared"; fail=1; }
mutate distances 's/,17+10,/,20+10,/' 'node 1: distances: guest has 20+10, file says 17+10'
mutate missing '/^1,/d' 'node 1: node: missing from the guest'"'"'s view'
mutate extra '$a2,-,512,-,-,-,-,-,-,-,-' 'node 2: node: guest has it, file has nodes 0-1'
# zones: PMEM node 1 is movable (hot-added, onlined movable); onlined as
# kernel memory, or left as boot memory, it is not
mutate zone 's/^1,\(.*\),movable$/1,\1,normal/' 'node 1: zone: guest has normal, file says movable'
mutate zonemixed 's/^1,\(.*\),movable$/1,\1,mixed/' 'node 1: zone: guest has mixed, file says movable'
# a boot node also holds the hot-added memory's struct pages (1/64 of 1 GiB)
mutate memmap 's/^0,0-1,1024,/0,0-1,911,/' \
	'node 0: mem_mib: guest has 911, file says 1024 (accepted 912-1024)'

# views recorded in real boots (tests/topology-guest/README.md)
for rec in tests/topology-guest/*.topo; do
	topo=topologies/$(basename "$rec" .topo).yaml
	{
		# the keys of the record's first line (older records have no zone)
		sed -n '1{s/^TOPO //; s/=[^ ]*//g; s/ /,/g; p}' "$rec"
		sed 's/^TOPO //; s/ /,/g; s/[a-z_]*=//g' "$rec"
	} >"$tmp/rec.csv"
	if ! "$LABTOOL" check-guest "$topo" "$tmp/rec.csv" >"$tmp/out" 2>&1; then
		echo "FAIL: $rec: the recorded guest view of $topo no longer passes:"
		sed 's/^/    /' "$tmp/out"
		fail=1
	fi
done

# A value longer than check-guest holds is refused with its line, not cut
# to a prefix that might then match.
long=$(printf '%0300d' 0)
"$LABTOOL" expect --all topologies/dram-pmem.yaml | sed "2s/^0,\([^,]*\),/0,\1$long,/" >"$tmp/long.csv"
"$LABTOOL" check-guest topologies/dram-pmem.yaml "$tmp/long.csv" >/dev/null 2>"$tmp/out"
rc=$?
if [ "$rc" -ne 65 ] || [ "$(cat "$tmp/out")" != "$tmp/long.csv:2: cpus: longer than 255 characters" ]; then
	echo "FAIL: a 300-character value: exit $rc, stderr:"
	sed 's/^/    /' "$tmp/out"
	fail=1
fi

if [ -x "$PROBE" ]; then
	"$PROBE" >"$tmp/probe" || { echo "FAIL: $PROBE exited $?"; fail=1; }
	nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
	good=$(grep -cE '^TOPO node=[0-9]+ cpus=[^ ,]+ mem_mib=[0-9]+ read_latency_ns=[^ ,]+ write_latency_ns=[^ ,]+ read_bandwidth_mbps=[^ ,]+ write_bandwidth_mbps=[^ ,]+ tier=[^ ,]+ distances=[0-9+]+ cache_size=[^ ,]+ zone=(normal|movable|mixed|-)$' "$tmp/probe")
	if [ "$good" -ne "$nodes" ] || [ "$(wc -l <"$tmp/probe")" -ne "$nodes" ]; then
		echo "FAIL: topoprobe: want $nodes well-formed TOPO lines, got:"
		sed 's/^/    /' "$tmp/probe"
		fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "ok: check-guest accepts matching views and names each difference"
exit $fail
