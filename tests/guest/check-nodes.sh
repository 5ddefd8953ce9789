#!/bin/sh
# In the guest: check each node against "node:mem_mib:read_latency_ns:zone"
# words (from labtool expect).  MemTotal may be a little below the backend
# size (the kernel keeps some for itself), never above it.  The zone is read
# from /proc/zoneinfo here, apart from topoprobe: movable means every present
# page of the node in ZONE_MOVABLE, normal none.  TAP output; exit 1 on any
# mismatch.
n=0 bad=0
for spec in "$@"; do
	node=${spec%%:*} rest=${spec#*:}
	mem=${rest%%:*} rest=${rest#*:}
	lat=${rest%%:*} zone=${rest#*:}
	d=/sys/devices/system/node/node$node
	n=$((n + 1))
	if [ ! -d "$d" ]; then
		echo "TAP not ok $n - node$node exists"; bad=1; continue
	fi
	kb=$(awk '/MemTotal/ {print $4}' "$d/meminfo")
	got=$((kb / 1024))
	if [ "$got" -le "$mem" ] && [ "$got" -ge $((mem * 85 / 100)) ]; then
		echo "TAP ok $n - node$node MemTotal ${got} MiB of ${mem} MiB"
	else
		echo "TAP not ok $n - node$node MemTotal ${got} MiB, expected about ${mem} MiB"; bad=1
	fi
	n=$((n + 1))
	got=$(awk -v node="$node" '
		/^Node / { sub(",", "", $2); cur = $2; mov = ($4 == "Movable") }
		cur == node && $1 == "present" { if (mov) m += $2; else o += $2 }
		END { print (m + o == 0) ? "-" : (o == 0) ? "movable" : (m == 0) ? "normal" : "mixed" }' /proc/zoneinfo)
	if [ "$got" = "$zone" ]; then
		echo "TAP ok $n - node$node zone $got (/proc/zoneinfo present pages)"
	else
		echo "TAP not ok $n - node$node zone $got, expected $zone"; bad=1
	fi
	n=$((n + 1))
	if [ "$lat" = - ]; then
		echo "TAP ok $n - node$node has no HMAT figures to check # SKIP none in the file"
		continue
	fi
	got=$(cat "$d/access0/initiators/read_latency" 2>/dev/null || echo missing)
	if [ "$got" = "$lat" ]; then
		echo "TAP ok $n - node$node access0 read_latency $got ns"
	else
		echo "TAP not ok $n - node$node access0 read_latency $got, expected $lat ns"; bad=1
	fi
done
# NUMA balancing is off at boot (numa_balancing=disable, lab/boot/qemu.c):
# the kernel would otherwise enable it on this many-node machine.
n=$((n + 1))
got=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo missing)
if [ "$got" = 0 ]; then
	echo "TAP ok $n - kernel.numa_balancing 0 at boot"
else
	echo "TAP not ok $n - kernel.numa_balancing $got at boot, expected 0"; bad=1
fi
echo "TAP 1..$n"
exit $bad
