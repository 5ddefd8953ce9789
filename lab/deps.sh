#!/bin/bash
# Install the Debian packages named on the command line that are missing.
# Without root: print the exact apt-get line and fail.
set -euo pipefail
missing=()
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "tierlab: missing Debian packages; as root run: $line" >&2
	exit 1
fi
echo "tierlab: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/tierlab-apt.log 2>&1; then
	# The package lists may be stale on a fresh machine.
	apt-get update >>/tmp/tierlab-apt.log 2>&1 || true
	apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/tierlab-apt.log 2>&1 || {
		echo "tierlab: '$line' failed; see /tmp/tierlab-apt.log" >&2
		tail -n 5 /tmp/tierlab-apt.log >&2
		exit 1
	}
fi
