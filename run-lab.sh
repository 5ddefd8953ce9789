#!/bin/bash
# tierlab: boot the lab's kernel on an emulated tiered-memory machine, run the
# benchmarks in the guest, and leave the figures and a report in results/.
#
# usage: ./run-lab.sh [options] [TOPOLOGY.yaml...]
#        ./run-lab.sh compare RUN-DIR RUN-DIR...
#
# ./run-lab.sh --help lists the options.  This script orchestrates: builds,
# boots, waits.  labtool decides and writes every file of the run directory
# (README, "Design"): args (the options), accel, init (run.args, started,
# meta.json), prepare (a boot's plan, QEMU command, initramfs), collect and
# finish (the rows), multi (several topologies), meta end, report.
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
# labtool's own progress lines (util.h, say()) count from this script's start
if [ "$quiet" = 1 ]; then unset TIERLAB_SAY_SINCE; else export TIERLAB_SAY_SINCE=$((EPOCHSECONDS - SECONDS + start)); fi
say "building host tools and guest binaries"
build all initramfs
# benchmark names against tierbench's own list, workloads against workloads/,
# --kernel patched:N against the series
"$labtool" args --lab "$lab" --names -- "$@" || exit $?
[ "$kernel" != 6.1 ] || "$lab/lab/deps.sh" optional || exit 1

# --- the run directory ---------------------------------------------------------
# init ARGS...: labtool init (free space checked, then raw/, run.args, started,
# meta.json) with this run's options
init() { "$labtool" init "$@" "${kmeta[@]+"${kmeta[@]}"}" lab_commit="$(lab_commit)" -- "${opts[@]}" --accel "$accel" -- "${topologies[@]}"; }
lab_commit() { echo "$(git -C "$lab" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$lab" diff --quiet HEAD 2>/dev/null || echo -dirty)"; }
# meta.json's kernel and accelerator keys, once known (labtool meta init|end;
# a plan's run starts before either, and its final step adds them)
kmeta=()

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
plugin=(--plugin "$lab/build/plugin/tiermem.so" --qemu-version "$qemu_version")

if [ "$print_qemu" = 1 ]; then
	kdir=$(kernel_dir --path)
	"$labtool" print-qemu --kernel-dir "$kdir" --initramfs "$lab/build/initramfs.cpio" "${plugin[@]}" \
		-- "${opts[@]}" -- "${topologies[@]}"
	exit
fi

say "kernel: $kernel"
kdir=$(kernel_dir $([ "$quiet" = 1 ] && echo -q)) || die "kernel build failed (see above)"
release=$(cat "$kdir/release")
say "kernel: $release ($kdir)"

# --- accelerator (labtool accel: auto probes KVM, lab/boot/cmd_accel.c) ----------
accel=$("$labtool" accel --kernel-dir "$kdir" --initramfs "$lab/build/initramfs.cpio" \
	-- "${opts[@]}" -- "${topologies[@]}") || exit $?
# the options as labtool takes them after --: canonical, the accelerator, the topologies
run_opts=("${opts[@]}" --accel "$accel" -- "${topologies[@]}")
say "accelerator: $accel, clock: $clock"
kmeta=(--kernel-dir "$kdir" qemu_version="$qemu_version" accelerator="$accel")

# --- several machines: one run each, then a comparison ---------------------------
# labtool multi runs this script once per topology (lab/rundir/cmd_multi.c),
# in the background so that a signal to this shell reaches the run in flight.
if [ ${#topologies[@]} -gt 1 ] && [ -z "$resume" ] && [ -z "$exec_cmd" ]; then
	rc=0
	"$labtool" multi $([ "$quiet" = 1 ] && echo -q) "$0" -- "${run_opts[@]}" &
	inner=$!
	trap 'kill -TERM "$inner" 2>/dev/null' INT TERM HUP
	wait "$inner" || rc=$?
	while kill -0 "$inner" 2>/dev/null; do wait "$inner" || rc=$?; done
	exit "$rc"
fi

# --- this run's directory -------------------------------------------------------
# Staging (one ~120 MiB initrd per boot in flight, removed when the boot
# ends) lives outside the results directory, so that only results go there.
# labtool init checks first that TMPDIR has room for -j of them.
work=$(mktemp -d "${TMPDIR:-/tmp}/tierlab-work.XXXXXX") || die "cannot create a staging directory in ${TMPDIR:-/tmp}"
trap 'rm -f "$buildlog"; rm -rf "$work"' EXIT
staging=(--staging "$work" --initramfs "$lab/build/initramfs.cpio")
if [ -n "$resume" ]; then
	run=$resume
	say "resuming $run"
	# writable, with room; meta.json for a run begun before labtool meta wrote it at its start
	init --run "$run" ${only_boot:+--no-meta} "${staging[@]}" || exit $?
else
	run=$(init "${staging[@]}") || exit $?
fi

# One boot: its plan, QEMU command and initramfs (labtool prepare), QEMU
# under the watchdog, collect.  Leaves boots/ID.status when it completed
# (whatever its outcome), which is what --resume looks for; an interrupted
# boot leaves none and is redone.
do_boot() {
	local id=$1 stage=$work/boot-$id qrc=0 crc=0 progress=
	rm -rf "$stage" && mkdir -p "$stage"
	"$labtool" prepare "$run" "$id" --kernel "$kdir/bzImage" --initrd "$stage/initrd" --accel "$accel" \
		--base "$lab/build/initramfs.cpio" "${plugin[@]}" > "$stage/argv" || return $?
	mapfile -d '' -t qemu < "$stage/argv"
	say "boot $id/$total: $(basename "${topologies[(id - 1) / boots]}" .yaml) ($accel, clock $clock, profile $profile)"
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
	# labtool collect writes the boot's own files only (boots/ID.*): no lock.
	# It says how the boot went, a failed boot or step even under -q.
	"$labtool" collect "$run" "$id" --boot-rc "$qrc" --say "boot $id/$total" || crc=$?
	# collect could not write the boot's files (64 and up): the boot is not
	# marked collected and the run fails, rather than going on without its rows
	[ "$crc" -lt 64 ] || return "$crc"
	[ -z "$exec_cmd" ] || cat "$run/boots/$id.out"
	outcome "$id"
}

# outcome ID: exit with a collected boot's outcome (labtool outcome: 3 the
# boot failed, else 4 if the --exec command's status was not 0, else 1 if a check or step
# failed or, for a topology's first boot, if the guest's view of the machine
# differs from the topology, which it says even under -q; checked again for
# a kept boot).
outcome() { "$labtool" outcome "$run" "$1" --kernel-release "$release" --say "boot $1/$total"; }

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
		{ outcome "$id" && echo 0 || echo $?; } > "$work/rc-$id"
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
# the worst boot's code: a failed boot (3) over a failed --exec command (4)
worst=$("$labtool" worst $(cat "$work"/rc-* 2>/dev/null)) || exit $?
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
if [ "$(df -Pk "$run" 2>/dev/null | awk 'NR == 2 { print int($4 / 1024) }')" = 0 ]; then
	echo "run-lab: $run: the disk filled up during the run; its files may be incomplete" >&2
	worst=$((worst > 1 ? worst : 1))
fi
say "results: $run"
[ -z "${TIERLAB_RUN_DIR_FILE:-}" ] || echo "$run" > "$TIERLAB_RUN_DIR_FILE"
exit "$worst"
