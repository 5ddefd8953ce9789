#!/bin/bash
# suiterun on the host (a static x86-64 binary, as the guest runs it): a
# test ends when its program exits, not when its output closes.  A test
# that leaves a process in the background holding stdout open and exits 0
# passes (exit 0) in about a second (the 1 s drain), not as a timeout; one
# that exits 3 so fails with exit 3; the background process is killed with
# the test's group; output written before the exit still comes through; a
# test that really outlives its timeout still fails as one.  SUITERUN= runs
# another binary (the old one, to see this fail).  No guest, a few seconds.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
make -s build/guest/suiterun || { echo "FAIL make build/guest/suiterun"; exit 1; }
sr=${SUITERUN:-build/guest/suiterun}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

# suiterun's words have no quoting: the shell commands go in scripts
marker="sleep 30.$$"	# GNU sleep: seconds with a fraction, this run's
cat >"$tmp/bg0.sh" <<EOS
#!/bin/sh
echo before-exit
$marker &
exit 0
EOS
cat >"$tmp/bg3.sh" <<EOS
#!/bin/sh
$marker &
exit 3
EOS
printf '#!/bin/sh\nsleep 30\n' >"$tmp/slow.sh"
# a line longer than suiterun's 4096-byte buffer, and a last line without newline
printf '#!/bin/sh\nhead -c 5000 /dev/zero | tr "\\\\0" x\necho\nprintf tail-without-newline\n' >"$tmp/long.sh"
chmod +x "$tmp"/*.sh
cat >"$tmp/list" <<'EOS'
bg-exit0 10 ./bg0.sh
bg-exit3 10 ./bg3.sh
slow 1 ./slow.sh
long 10 ./long.sh
EOS
start=$SECONDS
"$sr" "$tmp/list" >"$tmp/out" 2>&1
rc=$?
took=$((SECONDS - start))
cat "$tmp/out"
check "a test that exited 0 with a background process on its stdout passes" \
	'grep -qE "^bg-exit0: pass \(exit 0, [01]\.[0-9] s\)$" "$tmp/out"'
check "its output from before the exit comes through" 'grep -qx "# bg-exit0| before-exit" "$tmp/out"'
check "a test that exited 3 so fails with its own status" \
	'grep -qE "^bg-exit3: fail \(exit 3, [01]\.[0-9] s\)$" "$tmp/out"'
check "a test past its timeout still fails as one" \
	'grep -qE "^slow: fail \(timeout after 1 s, " "$tmp/out"'
check "a line longer than the buffer comes in pieces of 4096 bytes, nothing lost" \
	'[ "$(grep "^# long| x" "$tmp/out" | awk "{ print length(\$0) - 8 }" | tr "\n" " ")" = "4096 904 " ]'
check "a last line without its newline comes through" 'grep -qx "# long| tail-without-newline" "$tmp/out"'
check "summary and status: 2 pass, 2 fail, exit 1 (got $rc)" \
	'grep -qx "suiterun: 2 pass, 0 skip, 2 fail (of 4)" "$tmp/out" && [ "$rc" = 1 ]'
check "the whole list took seconds, not the 20 s of two timeouts (took $took s)" '[ "$took" -le 8 ]'
left=$(pgrep -xf "$marker" | tr '\n' ' ')
check "the background processes went with their groups (left: ${left:-none})" '[ -z "$left" ]'
[ -z "$left" ] || kill $left 2>/dev/null
exit $fail
