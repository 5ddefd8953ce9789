#!/bin/bash
# Install the missing Debian packages of the given sections of lab/packages
# (build, test, optional).  Without root: print the exact apt-get line and
# fail.
set -euo pipefail
list=$(dirname "$0")/packages
wanted=()
for section in "$@"; do
	grep -q "^$section:" "$list" || { echo "tierlab: lab/packages has no section '$section'" >&2; exit 2; }
	# shellcheck disable=SC2207
	wanted+=($(sed -n "s/^$section://p" "$list"))
done
missing=()
for pkg in "${wanted[@]}"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "tierlab: missing Debian packages; as root run: $line" >&2
	exit 1
fi
echo "tierlab: installing ${missing[*]}" >&2
log=$(mktemp "${TMPDIR:-/tmp}/tierlab-apt.XXXXXX")
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
	# The package lists may be stale on a fresh machine.
	if ! { apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; } >>"$log" 2>&1; then
		echo "tierlab: '$line' failed; the log is $log" >&2
		tail -n 5 "$log" >&2
		exit 1
	fi
fi
rm -f "$log"
