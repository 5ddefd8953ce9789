#!/bin/bash
# tierlab: boot the lab's kernel on an emulated tiered-memory machine, run the
# benchmarks in the guest, and leave the figures and a report in results/.
#
# usage: ./run-lab.sh [options] [TOPOLOGY.yaml...]
#        ./run-lab.sh compare RUN-DIR RUN-DIR...
#
# ./run-lab.sh --help lists the options.  This script orchestrates: builds,
# boots, waits.  labtool checks the options and writes every file of the run
# directory (README, "Results format"): args (the options, lab/rundir/runopts.c),
# init (run.args, started, meta.json), collect and finish (the rows), meta
# end, report.
set -euo pipefail

lab=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS
quiet=0
for a; do [ "$a" != -q ] || quiet=1; done	# until labtool args says

die() { echo "run-lab: $*" >&2; exit "${rc:-2}"; }
say() { [ "$quiet" = 1 ] || printf '[%4ds] %s\n' $((SECONDS - start)) "$*" >&2; }

if [ "${1:-}" = compare ]; then
	shift
	make -s -C "$lab" host >/dev/null
	exec "$lab/build/host/labtool" compare "$@"
fi

# --- packages, the options, host tools ------------------------------------------
"$lab/lab/deps.sh" build || exit 1
buildlog=$(mktemp "${TMPDIR:-/tmp}/tierlab-make.XXXXXX")
trap 'rm -f "$buildlog"' EXIT
# build TARGET...: make, one at a time (boots of a plan start at once, each with this make)
build() {
	mkdir -p "$lab/build"
	flock "$lab/build/.make.lock" make -s -C "$lab" "$@" >"$buildlog" 2>&1 && return
	tail -n 20 "$buildlog" >&2
	die "building the lab's own code failed (output above)"
}
build host
labtool=$lab/build/host/labtool
# The options, checked (labtool args, lab/rundir/runopts.c), as shell assignments.
opts_sh=$("$labtool" args --lab "$lab" -- "$@") || exit $?
eval "$opts_sh"
say "building host tools and guest binaries"
build all initramfs
# benchmark names against tierbench's own list, workloads against workloads/
"$labtool" args --lab "$lab" --names -- "$@" || exit $?
[ "$kernel" != 6.1 ] || "$lab/lab/deps.sh" optional || exit 1
case $kernel in
patched:*)
	err=$("$lab/kernel/build.sh" --flavor "$kernel" --key 2>&1 >/dev/null) ||
		die "--kernel: ${err#kernel/build.sh: --flavor }" ;;
esac

# --- the run directory ---------------------------------------------------------
free_mib() { df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print int($4 / 1024) }'; }
# init ARGS...: labtool init (free space checked, then raw/, run.args, started,
# meta.json) with this run's options
init() { "$labtool" init "$@" "${kmeta[@]+"${kmeta[@]}"}" lab_commit="$(lab_commit)" -- "${opts[@]}" --accel "$accel" -- "${topologies[@]}"; }
lab_commit() { echo "$(git -C "$lab" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$lab" diff --quiet HEAD 2>/dev/null || echo -dirty)"; }
# meta.json's kernel and accelerator keys, once known (labtool meta init|end;
# a plan's run starts before either, and its final step adds them)
kmeta=()
set_kmeta() {
	kmeta=(--kernel-dir "$kdir" qemu_version="$qemu_version")
	[ "$accel" = auto ] || kmeta+=(accelerator="$accel")
}

# --- a study spread over machines ------------------------------------------------
# The run directories are made here, once; each printed line runs one boot
# into its run (--resume RUN --only-boot ID: the same boot id, hence the same
# plan and seeds, as --boots N), and `--resume RUN` then finds nothing to
# redo and writes the report.  Several topologies: one run each, as below.
if [ "$print_plan" = 1 ]; then
	# Built now, so that boots started together find the kernel in the cache.
	"$lab/kernel/build.sh" --flavor "$kernel" $([ "$quiet" = 1 ] && echo -q) >/dev/null ||
		die "kernel build failed (see above)"
	init --plan "$lab"
	exit
fi

kernel_dir() { "$lab/kernel/build.sh" --flavor "$kernel" "$@"; }

qemu_version=$(qemu-system-x86_64 --version | head -n 1)
plugin=()
[ "$memory_timing" = off ] || plugin=(--plugin "$lab/build/plugin/tiermem.so" --qemu-version "$qemu_version")
# qemu_cmd TOPOLOGY KERNEL INITRD CONSOLE CHANNEL ACCEL MEMTIMING-FILE -> the array qemu,
# the whole command as labtool builds it (lab/boot/qemu.c)
qemu_cmd() {
	local f args=(--kernel "$2" --initrd "$3" --console "$4" --channel "$5" --accel "$6" --clock "$clock")
	[ "$no_prealloc" = 0 ] || args+=(--no-prealloc)
	[ "$memory_timing" = off ] || args+=(--memory-timing-out "$7" "${plugin[@]}" --memory-timing "$memory_timing")
	f=$(mktemp "${TMPDIR:-/tmp}/tierlab-argv.XXXXXX") || die "cannot create a file in ${TMPDIR:-/tmp}"
	if ! "$labtool" qemu-argv "$1" "${args[@]}" >"$f"; then
		rm -f "$f"
		die "$1: no QEMU command line (above)"
	fi
	mapfile -d '' -t qemu <"$f"
	rm -f "$f"
}

if [ "$print_qemu" = 1 ]; then
	kdir=$(kernel_dir --path)
	for t in "${topologies[@]}"; do
		qemu_cmd "$t" "$kdir/bzImage" "$lab/build/initramfs.cpio" console.log channel.log tcg memtiming.txt
		printf '%q ' "${qemu[@]}"
		echo
	done
	exit 0
fi

say "kernel: $kernel"
kdir=$(kernel_dir $([ "$quiet" = 1 ] && echo -q)) || die "kernel build failed (see above)"
release=$(cat "$kdir/release")
say "kernel: $release ($kdir)"

# --- accelerator ---------------------------------------------------------------
# On nested machines /dev/kvm may exist while a KVM guest hangs at "Booting
# from ROM", so KVM is used only after a probe boot reaches /init in time.
probe_kvm() {
	local cache=${TIERLAB_CACHE:-/var/cache/tierlab}/kvm-probe key dir rc=0
	key=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)-$(basename "$kdir")
	if [ -f "$cache/$key" ]; then cat "$cache/$key"; return; fi
	[ -w /dev/kvm ] || { echo tcg; return; }
	dir=$(mktemp -d "${TMPDIR:-/tmp}/tierlab-kvm.XXXXXX")
	printf 'boot probe\n' > "$dir/plan"
	mkdir -p "$dir/root/lab" && cp "$dir/plan" "$dir/root/lab/plan"
	(cd "$dir/root" && find . | cpio -o -H newc --quiet) | cat "$lab/build/initramfs.cpio" - > "$dir/initrd"
	qemu_cmd "${topologies[0]}" "$kdir/bzImage" "$dir/initrd" "$dir/console" "$dir/channel" kvm -
	"$labtool" boot --console "$dir/console" --channel "$dir/channel" --idle 8 --wall 15 \
		-- "${qemu[@]}" >/dev/null 2>&1 || rc=$?
	mkdir -p "$cache"
	if [ "$rc" = 0 ] && grep -q 'tierlab: /init reached' "$dir/console"; then
		echo kvm | tee "$cache/$key"
	else
		echo tcg | tee "$cache/$key"
	fi
	rm -rf "$dir"
}
case $accel in
auto) if [ "$clock" = icount ] || [ "$memory_timing" != off ]; then accel=tcg; else say "probing KVM"; accel=$(probe_kvm); fi ;;
kvm) [ -w /dev/kvm ] || die "--accel kvm: /dev/kvm is not usable" ;;
esac
say "accelerator: $accel, clock: $clock"
set_kmeta

# --- several machines: one run each, then a comparison ---------------------------
# Each topology gets its own run directory (its own report, resumable on its
# own); the comparison report puts them side by side.
if [ ${#topologies[@]} -gt 1 ] && [ -z "$resume" ] && [ -z "$exec_cmd" ]; then
	runs=() worst=0
	for t in "${topologies[@]}"; do
		say "== $(basename "$t" .yaml)"
		where=$(mktemp "${TMPDIR:-/tmp}/tierlab-run.XXXXXX")
		rc=0
		args=("${opts[@]}" --accel "$accel")
		[ "$quiet" = 0 ] || args+=(-q)
		# In the background, so a signal to this shell reaches the child run.
		TIERLAB_RUN_DIR_FILE=$where "$0" "${args[@]}" "$t" &
		inner=$!
		trap 'kill -TERM "$inner" 2>/dev/null' INT TERM HUP
		wait "$inner" || rc=$?
		while kill -0 "$inner" 2>/dev/null; do wait "$inner" || rc=$?; done
		trap - INT TERM HUP
		[ ! -s "$where" ] || runs+=("$(cat "$where")")
		rm -f "$where"
		[ "$rc" -le "$worst" ] || worst=$rc
		[ "$rc" != 130 ] || exit 130
	done
	if [ ${#runs[@]} -gt 1 ]; then
		cmp=$results/compare-$(date +%Y%m%d-%H%M%S)
		if "$labtool" compare -o "$cmp" "${runs[@]}" >/dev/null; then
			say "comparison: $cmp/compare.html"
		else
			echo "run-lab: the comparison report failed" >&2
			worst=$((worst > 1 ? worst : 1))
		fi
	fi
	exit "$worst"
fi

# --- this run's directory -------------------------------------------------------
# Staging (one ~120 MiB initrd per boot in flight, removed when the boot
# ends) lives outside the results directory, so that only results go there.
work=$(mktemp -d "${TMPDIR:-/tmp}/tierlab-work.XXXXXX") || die "cannot create a staging directory in ${TMPDIR:-/tmp}"
trap 'rm -f "$buildlog"; rm -rf "$work"' EXIT
initrd_mib=$(( $(stat -c %s "$lab/build/initramfs.cpio") / 1048576 + 8 ))
have=$(free_mib "$work")
[ -z "$have" ] || [ "$have" -ge $((initrd_mib * jobs)) ] ||
	die "${TMPDIR:-/tmp}: only $have MiB free; staging $jobs boot(s) needs about $((initrd_mib * jobs)) MiB (set TMPDIR)"
if [ -n "$resume" ]; then
	run=$resume
	say "resuming $run"
	# writable, with room; meta.json for a run begun before labtool meta wrote it at its start
	init --run "$run" ${only_boot:+--no-meta} || exit $?
else
	run=$(init) || exit $?
fi

# One boot: plan, initramfs, QEMU under the watchdog, collect.  Leaves
# boots/ID.status when it completed (whatever its outcome), which is what
# --resume looks for; an interrupted boot leaves none and is redone.
do_boot() {
	local id=$1 name stage qrc=0 crc=0 line
	name=$(basename "${topologies[(id - 1) / boots]}" .yaml)
	stage=$work/boot-$id
	rm -rf "$stage"
	mkdir -p "$stage/root/lab" "$stage/root/bin"
	# The boot's plan and QEMU command (raw/plan-ID.txt, raw/qemu-ID.cmd), from run.args
	"$labtool" prepare "$run" "$id" --kernel "$kdir/bzImage" --initrd "$stage/initrd" --accel "$accel" \
		"${plugin[@]+"${plugin[@]}"}" > "$stage/argv" || return $?
	mapfile -d '' -t qemu < "$stage/argv"
	cp "$run/raw/plan-$id.txt" "$stage/root/lab/plan"
	# --add SRC:DEST (labtool args made SRC absolute and checked DEST)
	for a in "${adds[@]+"${adds[@]}"}"; do
		mkdir -p "$(dirname "$stage/root/${a##*:/}")" && cp -r "${a%:/*}" "$stage/root/${a##*:/}" ||
			die "--add: cannot stage ${a%:/*}"
	done
	(cd "$stage/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
		cat "$lab/build/initramfs.cpio" - > "$stage/initrd"
	say "boot $id/$total: $name ($accel, clock $clock, profile $profile)"
	local progress=
	[ "$quiet" = 1 ] || progress=yes
	"$labtool" boot --console "$run/raw/console-$id.log" --channel "$run/raw/channel-$id.log" \
		--idle "$idle_timeout" --wall "$boot_timeout" ${progress:+--progress "boot $id/$total"} \
		--timing "$run/raw/boot-$id.timing" -- "${qemu[@]}" &
	boot_pid=$!
	wait "$boot_pid" || qrc=$?
	# A signal interrupts wait, not the boot: wait again for the watchdog,
	# which has been told to kill QEMU.
	while kill -0 "$boot_pid" 2>/dev/null; do wait "$boot_pid" || qrc=$?; done
	rm -rf "$stage"
	boot_pid=
	[ "$interrupted" = 0 ] || return 130
	# labtool collect writes the boot's own files only (boots/ID.*): no lock
	line=$("$labtool" collect "$run" "$id" --boot-rc "$qrc") || crc=$?
	# A failed boot or step is said even under -q.
	if [ "$crc" = 0 ]; then
		say "boot $id/$total: ${line#boot $id: }"
	else
		echo "run-lab: boot $id/$total: ${line#boot $id: }" >&2
	fi
	if [ -f "$run/boots/$id.panic.txt" ]; then
		sed -n '1,40p' "$run/boots/$id.panic.txt" | sed 's/^/    /' >&2
	fi
	# collect could not write the boot's files (64 and up): the boot is not
	# marked collected and the run fails, rather than going on without its rows
	[ "$crc" -lt 64 ] || return "$crc"
	[ -z "$exec_cmd" ] || cat "$run/boots/$id.out"
	outcome "$id"
}

# outcome ID: exit with a collected boot's outcome (labtool outcome: 3 the
# boot failed, else 4 if the --exec command's status was not 0, else 1 if a check or step
# failed or, for a topology's first boot, if the guest's view of the machine
# differs from the topology; checked again for a kept boot).
outcome() {
	local rc=0 view
	view=$("$labtool" outcome "$run" "$1" --kernel-release "$release") || rc=$?
	case $view in
	match*) say "boot $1/$total: the guest's view matches ${view#match }" ;;
	# said even under -q
	differs*) echo "run-lab: boot $1/$total: the guest's view of the machine differs from ${view#differs } (above)" >&2 ;;
	exec-status*) echo "run-lab: boot $1/$total: the command exited with status ${view#exec-status } (run-lab exits 4)" >&2 ;;
	esac
	return "$rc"
}

# Boot ids: 1..N over topologies x repetitions, in order.
total=$((${#topologies[@]} * boots))

interrupted=0 boot_pid=
on_signal() {
	interrupted=1
	[ -z "$boot_pid" ] || kill -TERM "$boot_pid" 2>/dev/null
	kill -TERM $(jobs -p) 2>/dev/null
}
trap on_signal INT TERM HUP

# Each boot records its outcome in work/rc-ID, so parallel boots report
# theirs as reliably as serial ones.
# One process per boot (boots of a plan share the run directory): a line of
# the plan run twice, or --resume while the plan's boots still run, waits for
# the boot in flight and keeps it rather than booting it again.
boot_and_record() {
	local rc=0 lock
	trap on_signal INT TERM HUP
	exec {lock}>"$run/.boot-$1.lock"
	if ! flock -n "$lock"; then
		say "boot $1/$total: running in another process; waiting for it"
		until flock -w 5 "$lock"; do
			[ "$interrupted" = 0 ] || { exec {lock}>&-; echo 130 > "$work/rc-$1"; return 0; }
		done
	fi
	if [ -f "$run/boots/$1.status" ]; then
		say "boot $1/$total: done by the other process, kept"
		outcome "$1" || rc=$?
	else
		do_boot "$1" || rc=$?
	fi
	exec {lock}>&-
	echo "$rc" > "$work/rc-$1"
}
for id in $(seq 1 "$total"); do
	[ "$interrupted" = 0 ] || break
	[ -z "$only_boot" ] || [ "$id" = "$only_boot" ] || continue
	if [ -f "$run/boots/$id.status" ]; then
		say "boot $id/$total: done before, kept"
		rc=0
		outcome "$id" || rc=$?
		echo "$rc" > "$work/rc-$id"
		continue
	fi
	if [ "$jobs" = 1 ]; then
		boot_and_record "$id"
	else
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		boot_and_record "$id" &
	fi
done
while [ -n "$(jobs -rp)" ]; do wait || true; done
worst=0
for f in "$work"/rc-*; do
	[ -f "$f" ] || continue
	rc=$(cat "$f")
	[ "$rc" -le "$worst" ] || worst=$rc
done
if [ "$interrupted" = 1 ]; then
	echo "run-lab: interrupted; finish with: ./run-lab.sh --resume $run${only_boot:+ --only-boot $only_boot}" >&2
	exit 130
fi
# One boot of a plan: the report waits for all of them (./run-lab.sh --resume RUN).
if [ -n "$only_boot" ]; then
	say "boot $only_boot/$total: in $run; once every boot is done: ./run-lab.sh --resume $run"
	exit "$worst"
fi

# --- the run's files, provenance and report ---------------------------------------
# summary.csv and guest-topology.csv from the boots' own files (labtool finish)
"$labtool" finish "$run" || exit $?
# (a newer lab's meta.json is refused in one line, exit 65, and left as it is)
"$labtool" meta end "$run" "${kmeta[@]}" || exit $?

if [ -z "$exec_cmd" ]; then
	if "$labtool" report "$run" >"$work/report.log" 2>&1; then
		say "report: $run/report.html"
	else
		sed 's/^/    /' "$work/report.log" >&2
		say "report generation failed; figures are in $run/summary.csv"
		worst=$((worst > 1 ? worst : 1))
	fi
fi
if [ "$(free_mib "$run")" = 0 ]; then
	echo "run-lab: $run: the disk filled up during the run; its files may be incomplete" >&2
	worst=$((worst > 1 ? worst : 1))
fi
say "results: $run"
[ -z "${TIERLAB_RUN_DIR_FILE:-}" ] || echo "$run" > "$TIERLAB_RUN_DIR_FILE"
exit "$worst"
