#!/bin/sh
# The invalid-topology corpus: each tests/topology-invalid/NN-what.yaml must
# be rejected by `labtool validate` with exit 65 and exactly the lines of
# NN-what.err on stderr.  An .err without its .yaml is the missing-file
# case (exit 66).  Plus the unreadable cases that cannot live in git: a
# directory and a file without read permission.  Exit 0 pass, 1 fail.
LABTOOL=${LABTOOL:-build/host/labtool}
DIR=tests/topology-invalid
[ -x "$LABTOOL" ] || { echo "FAIL: $LABTOOL not built (make host)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
fail=0 n=0

# check NAME PATH WANT_RC EXPECTED_STDERR_FILE
check() {
	n=$((n + 1))
	"$LABTOOL" validate "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$3" ]; then
		echo "FAIL: $1: exit $rc, want $3"
		fail=1
	elif ! cmp -s "$tmp/err" "$4"; then
		echo "FAIL: $1: stderr differs (- want, + got):"
		diff -u "$4" "$tmp/err" | tail -n +3 | sed 's/^/    /'
		fail=1
	elif [ -s "$tmp/out" ]; then
		echo "FAIL: $1: printed on stdout:"
		sed 's/^/    /' "$tmp/out"
		fail=1
	fi
}

for err in "$DIR"/*.err; do
	yaml=${err%.err}.yaml
	if [ -e "$yaml" ]; then
		check "$yaml" "$yaml" 65 "$err"
	else
		check "$yaml (missing)" "$yaml" 66 "$err"
	fi
done
for yaml in "$DIR"/*.yaml; do
	[ -e "${yaml%.yaml}.err" ] || { echo "FAIL: $yaml has no .err"; fail=1; }
done

echo "$tmp: topology: cannot read: Is a directory" >"$tmp/dir.err"
check "a directory" "$tmp" 66 "$tmp/dir.err"
if [ "$(id -u)" -ne 0 ]; then
	cp topologies/dram-pmem.yaml "$tmp/noperm.yaml" && chmod 000 "$tmp/noperm.yaml"
	echo "$tmp/noperm.yaml: topology: cannot open: Permission denied" >"$tmp/noperm.err"
	check "no read permission" "$tmp/noperm.yaml" 66 "$tmp/noperm.err"
fi

[ "$fail" -eq 0 ] && echo "ok: $n invalid topologies rejected with their exact messages"
exit $fail
