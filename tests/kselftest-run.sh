# Sourced by the tests that boot mpol-kselftest on 2s-dram-pmem under one
# kernel flavor after another: a temporary directory $tmp (removed on exit),
# kselftest_run KERNEL -> output in $tmp/KERNEL.out, status in $tmp/KERNEL.rc,
# kselftest_placed KERNEL -> "node0 node3 ": the nodes the default (local)
# overflow landed on.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kselftest_run() {
	./run-lab.sh -q --kernel "$1" --results "$tmp/$1" --exec mpol-kselftest \
		topologies/2s-dram-pmem.yaml >"$tmp/$1.out" 2>&1
	echo $? >"$tmp/$1.rc"
}

kselftest_placed() {
	sed -n 's/^TAP # placement local://p' "$tmp/$1.out" | head -1 | grep -o 'node[0-9]*' | tr '\n' ' '
}
