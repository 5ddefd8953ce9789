#!/bin/bash
# tierlab: boot the lab's kernel on an emulated tiered-memory machine, run the
# benchmarks in the guest, and leave the figures and a report in results/.
#
# usage: ./run-lab.sh [options] [TOPOLOGY.yaml...]
#        ./run-lab.sh compare RUN-DIR RUN-DIR...
#
# With no topology, runs topologies/dram-pmem.yaml.
#
# options:
#   --profile quick|default|full   benchmark size (default: default)
#   --benches LIST        comma-separated benchmarks (tierbench --list); 'none' for none
#   --workloads LIST      comma-separated workloads of workloads/; 'none' (default) for none
#   --exec CMD            run CMD in the guest (via sh -c) instead of the benchmarks;
#                         its output and exit status become run-lab's
#   --add PATH            copy PATH into the guest's /bin (repeatable)
#   --kernel K            patched (default), patched:N (the first N patches of
#                         kernel/series), upstream (no series) or 6.1
#   --accel auto|tcg|kvm  accelerator (auto: KVM only if a short probe boot works;
#                         always TCG with --clock icount)
#   --clock icount|wall   what the guest's clock counts (default icount): guest
#                         instructions (QEMU -icount shift=0, timings in insn,
#                         the same in every boot) or host time (ns, noisy under TCG)
#   --memory-timing off|count
#                         count: a QEMU plugin counts, per node, the guest's
#                         reads, writes and simulated-LLC misses inside the
#                         phases the guest marks (each case of latency and
#                         fallback, each workload, the chase), as rows per
#                         case (TCG only; default off; README "Memory timing")
#   --no-prealloc         leave guest memory to be allocated as the guest touches
#                         it (default: preallocated; make bench-lab shows why)
#   --boots N             boots per topology (repetitions; default 1)
#   --fits yes|no|unknown whether the workload fits the nodes it is given: the
#                         branch of the report's decision rule (default unknown:
#                         the answer for a workload that may not, with the
#                         other beside it; README "Which policy? The decision rule")
#   --idle-timeout S      kill a boot silent for S seconds (default 300)
#   --boot-timeout S      kill a boot running longer than S seconds (default 3600)
#   --results DIR         where run directories go (default: results)
#   --step-timeout S      kill a guest step running longer than S seconds
#                         (default: by profile; for --exec, the boot timeout)
#   -j N                  run up to N boots at once (default 1)
#   --resume RUN-DIR [--only-boot ID] [-q]
#                         finish an interrupted run: redo only the boots that
#                         did not complete, with the run's original options,
#                         then write the report; with --only-boot, only boot ID
#                         (1..boots of the run) and no report
#   --print-qemu          print the QEMU command line for each topology and exit
#   --plan                create the run directory (one per topology) and print
#                         one command per boot that runs that boot into it (for
#                         GNU parallel, ssh or a batch scheduler), then, on
#                         stderr, the commands that write the report(s) once
#                         every boot has finished; exit
#   -q                    no progress lines
#   -h, --help            this text
#
# exit: 0 all well; 1 a check or step failed; 2 bad usage; 3 a boot failed
# (panic, hang, truncated results); 65 invalid topology; 66 missing file.
set -euo pipefail

lab=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS
quiet=0 profile=default benches=default workloads=none exec_cmd= kernel=patched
accel=auto boots=1 idle_timeout=300 boot_timeout=3600 results=results print_qemu=0
step_timeout= jobs=1 resume= print_plan=0 clock=icount clock_given=0 fits=unknown
memory_timing=off no_prealloc=0
adds=() topologies=()

die() { echo "run-lab: $*" >&2; exit "${rc:-2}"; }
say() { [ "$quiet" = 1 ] || printf '[%4ds] %s\n' $((SECONDS - start)) "$*" >&2; }
usage() { sed -n '2,/^set -e/{/^#/s/^# \{0,1\}//p}' "$0"; }

need_value() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"; }
is_count() { case $1 in '' | *[!0-9]*) return 1 ;; *) [ "$1" -gt 0 ] ;; esac; }

only_boot=
if [ "${1:-}" = --resume ]; then
	[ $# -ge 2 ] || die "--resume takes exactly one run directory and no other option (but --only-boot ID, -q)"
	resume=${2%/}
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--only-boot)
			need_value "$@"
			# a boot id as run-lab numbers them: 1..N, no sign, no leading 0
			[[ $2 =~ ^[1-9][0-9]{0,8}$ ]] || die "--only-boot: '$2' is not a boot id (a positive integer)"
			only_boot=$2; shift ;;
		-q) quiet=1 ;;
		*) die "--resume takes exactly one run directory and no other option (but --only-boot ID, -q)" ;;
		esac
		shift
	done
	resume_quiet=$quiet
	[ -f "$resume/run.args" ] || rc=66 die "$resume: not a run directory (no run.args)"
	# The run's own options, as they were given (NUL-separated).
	mapfile -d '' -t saved < "$resume/run.args"
	# Runs from before --clock existed were timed with the host's clock.
	printf '%s\n' "${saved[@]}" | grep -qx -- --clock || saved=(--clock wall "${saved[@]}")
	set -- "${saved[@]}"
	[ "$resume_quiet" = 0 ] || set -- -q "$@"
fi
if [ "${1:-}" = compare ]; then
	shift
	make -s -C "$lab" host >/dev/null
	exec "$lab/build/host/labtool" compare "$@"
fi

while [ $# -gt 0 ]; do
	case $1 in
	--profile) need_value "$@"; profile=$2; shift ;;
	--benches) need_value "$@"; benches=$2; shift ;;
	--workloads) need_value "$@"; workloads=$2; shift ;;
	--exec) need_value "$@"; exec_cmd=$2; shift ;;
	--add) need_value "$@"; adds+=("$2"); shift ;;
	--kernel) need_value "$@"; kernel=$2; shift ;;
	--accel) need_value "$@"; accel=$2; shift ;;
	--clock) need_value "$@"; clock=$2; clock_given=1; shift ;;
	--boots) need_value "$@"; boots=$2; shift ;;
	--fits) need_value "$@"; fits=$2; shift ;;
	--memory-timing) need_value "$@"; memory_timing=$2; shift ;;
	--no-prealloc) no_prealloc=1 ;;
	--idle-timeout) need_value "$@"; idle_timeout=$2; shift ;;
	--boot-timeout) need_value "$@"; boot_timeout=$2; shift ;;
	--results) need_value "$@"; results=$2; shift ;;
	--step-timeout) need_value "$@"; step_timeout=$2; shift ;;
	-j) need_value "$@"; jobs=$2; shift ;;
	-j[0-9]*) jobs=${1#-j} ;;
	--resume) die "--resume takes exactly one run directory and no other option (but --only-boot ID, -q)" ;;
	--only-boot) die "--only-boot goes after --resume RUN-DIR (see --help)" ;;
	--print-qemu) print_qemu=1 ;;
	--plan) print_plan=1 ;;
	-q) quiet=1 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; topologies+=("$@"); break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) topologies+=("$1") ;;
	esac
	shift
done

case $profile in quick | default | full) ;; *) die "--profile: '$profile' is not quick, default or full" ;; esac
case $fits in yes | no | unknown) ;; *) die "--fits: '$fits' is not yes, no or unknown" ;; esac
case $kernel in
patched | upstream | 6.1) ;;
patched:*) # N is checked against kernel/series once the tree is installed
	is_count "${kernel#patched:}" || die "--kernel: '$kernel': N must be a patch count from 1" ;;
*) die "--kernel: '$kernel' is not patched, patched:N, upstream or 6.1" ;;
esac
case $accel in auto | tcg | kvm) ;; *) die "--accel: '$accel' is not auto, tcg or kvm" ;; esac
case $memory_timing in off | count) ;; *) die "--memory-timing: '$memory_timing' is not off or count" ;; esac
# The plugin instruments TCG's translation: there is none under KVM.
[ "$memory_timing" = off ] || [ "$accel" != kvm ] ||
	die "--memory-timing count needs TCG; --accel kvm conflicts with it"
case $clock in icount | wall) ;; *) die "--clock: '$clock' is not icount or wall" ;; esac
# Debian's 6.1 goes silent under icount after "x86: Booting SMP
# configuration" (README, "Clocks"): unless the clock was asked for, it runs
# on the wall clock, and says so.
if [ "$kernel" = 6.1 ] && [ "$clock" = icount ]; then
	if [ "$clock_given" = 1 ]; then
		echo "run-lab: warning: --kernel 6.1 does not boot under --clock icount here (README, Clocks); expect a timeout" >&2
	else
		clock=wall
		[ "$quiet" = 1 ] || echo "run-lab: --kernel 6.1: the wall clock (6.1 does not boot under icount here; README, Clocks)" >&2
	fi
fi
# QEMU counts instructions only when it translates them itself.
[ "$clock" != icount ] || [ "$accel" != kvm ] ||
	die "--clock icount needs TCG; --accel kvm conflicts with it (use --clock wall)"
is_count "$boots" || die "--boots: '$boots' is not a positive integer"
is_count "$idle_timeout" || die "--idle-timeout: '$idle_timeout' is not a positive number of seconds"
is_count "$boot_timeout" || die "--boot-timeout: '$boot_timeout' is not a positive number of seconds"
[ -z "$step_timeout" ] || is_count "$step_timeout" || die "--step-timeout: '$step_timeout' is not a positive number of seconds"
is_count "$jobs" || die "-j: '$jobs' is not a positive integer"
if [ -n "$exec_cmd" ] && { [ "$benches" != default ] || [ "$workloads" != none ]; }; then
	die "--exec runs one command instead of the benchmarks; it conflicts with --benches/--workloads"
fi
for a in "${adds[@]+"${adds[@]}"}"; do
	[ -f "$a" ] && [ -r "$a" ] || rc=66 die "--add: $a: not a readable file"
done
[ ${#topologies[@]} -gt 0 ] || topologies=("$lab/topologies/dram-pmem.yaml")
for i in "${!topologies[@]}"; do
	t=${topologies[i]}
	[ -f "$t" ] && [ -r "$t" ] || rc=66 die "$t: no such readable topology file"
	# absolute, so a resumed run finds them from anywhere
	topologies[i]=$(realpath "$t")
done
for a in "${!adds[@]}"; do adds[a]=$(realpath "${adds[a]}"); done
# Boot ids are 1..topologies x boots, as numbered below.
if [ -n "$only_boot" ]; then
	n=$((${#topologies[@]} * boots))
	[ "$only_boot" -le "$n" ] || die "--only-boot: $only_boot: $resume has boots 1 to $n"
	jobs=1
fi

# --- packages and host tools ---------------------------------------------------
"$lab/lab/deps.sh" build || exit 1
[ "$kernel" != 6.1 ] || "$lab/lab/deps.sh" optional || exit 1
case $kernel in
patched:*)
	err=$("$lab/kernel/build.sh" --flavor "$kernel" --key 2>&1 >/dev/null) ||
		die "--kernel: ${err#kernel/build.sh: --flavor }" ;;
esac
say "building host tools and guest binaries"
buildlog=$(mktemp "${TMPDIR:-/tmp}/tierlab-make.XXXXXX")
trap 'rm -f "$buildlog"' EXIT
# Boots of a plan start at once, each with this make: one at a time.
mkdir -p "$lab/build"
if ! flock "$lab/build/.make.lock" make -s -C "$lab" all initramfs >"$buildlog" 2>&1; then
	tail -n 20 "$buildlog" >&2
	die "building the lab's own code failed (output above)"
fi
labtool=$lab/build/host/labtool

# Benchmark names are checked against tierbench's own list before any boot.
case $benches in
default | none) ;;
*)
	known=$("$lab/build/guest/tierbench" --list | awk 'NR > 1 { print $1 }')
	for b in ${benches//,/ }; do
		grep -qx -- "$b" <<<"$known" || die "--benches: unknown benchmark '$b' (known: $(echo $known | tr ' ' ,))"
	done
	;;
esac

# So are workload names, against workloads/.
case $workloads in
all | none) ;;
*)
	for w in ${workloads//,/ }; do
		[ -f "$lab/workloads/$w.fio" ] || [ -f "$lab/workloads/$w.job" ] ||
			die "--workloads: unknown workload '$w' (known: $(cd "$lab/workloads" && ls *.fio *.job | sed 's/\.[a-z]*$//' | paste -sd,))"
	done
	;;
esac

# Every topology is checked before anything is built, booted or written.
for t in "${topologies[@]}"; do
	"$labtool" validate "$t" >/dev/null || exit $?
done

# --- the run directory ---------------------------------------------------------
# Free space, checked before anything is written: a boot leaves ~5 MiB (logs,
# rows), the report a few more.
free_mib() { df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print int($4 / 1024) }'; }
check_space() {	# DIR: measured on DIR or, if it does not exist yet, its nearest parent
	local have need=$((16 + 8 * ${#topologies[@]} * boots)) at=$1
	while [ ! -d "$at" ] && [ "$at" != "$(dirname "$at")" ]; do at=$(dirname "$at"); done
	have=$(free_mib "$at")
	[ -z "$have" ] || [ "$have" -ge "$need" ] ||
		die "$1: only $have MiB free; this run needs about $need MiB (logs, rows, report)"
}
# new_run TOPOLOGY...: create a run directory for them under $results (raw/,
# run.args, started) and set run to it
new_run() {
	local first base n canon
	mkdir -p "$results" 2>/dev/null && [ -w "$results" ] || die "$results: cannot create or write the results directory"
	first=$(basename "$1" .yaml)
	[ $# -eq 1 ] || first=multi
	# mkdir is atomic: runs started in the same second get distinct ids.
	base=$results/$first-$(date +%Y%m%d-%H%M%S) run=$base n=1
	until mkdir "$run" 2>/dev/null; do
		[ -e "$run" ] || die "$run: cannot create the run directory"
		n=$((n + 1)) run=$base-$n
	done
	mkdir "$run/raw" || die "$run: cannot create the run directory"
	# The options in canonical form, for --resume.
	canon=(--profile "$profile" --benches "$benches" --workloads "$workloads" --kernel "$kernel"
		--accel "$accel" --clock "$clock" --boots "$boots" --idle-timeout "$idle_timeout"
		--boot-timeout "$boot_timeout" -j "$jobs" --results "$results" --fits "$fits"
		--memory-timing "$memory_timing")
	[ -z "$step_timeout" ] || canon+=(--step-timeout "$step_timeout")
	[ "$no_prealloc" = 0 ] || canon+=(--no-prealloc)
	[ -z "$exec_cmd" ] || canon+=(--exec "$exec_cmd")
	for a in "${adds[@]+"${adds[@]}"}"; do canon+=(--add "$a"); done
	printf '%s\0' "${canon[@]}" -- "$@" > "$run/run.args.tmp" &&
		mv "$run/run.args.tmp" "$run/run.args" || die "$run: cannot write run.args (disk full?)"
	date -Is > "$run/started"
	meta_init "$@"
}

# meta.json has one writer, `labtool meta` (its keys: lab/meta.h): init as
# the run starts, end (below) as it ends.
# kernel_meta: the kernel's and the accelerator's keys once known (NUL-separated);
# a plan's run starts before either, and its final step adds them.
kernel_meta() {
	[ -n "${kdir:-}" ] || return 0
	printf '%s\0' kernel_release="$release" kernel_flavor="$(sed -n 's/^flavor=//p' "$kdir/info")" \
		series_hash="$(sed -n 's/^series_hash=//p' "$kdir/info")" \
		kernel_source="$(sed -n 's/^source=//p' "$kdir/info")" qemu_version="$qemu_version"
	[ "$accel" = auto ] || printf '%s\0' accelerator="$accel"
}
# meta_init TOPOLOGY...: meta.json of $run as it starts
meta_init() {
	local args=() t k
	for t; do args+=(--topology "$t"); done
	mapfile -d '' -t k < <(kernel_meta)
	"$labtool" meta init "$run" "${args[@]}" start="$(cat "$run/started")" clock="$clock" fits="$fits" \
		memory_timing="$memory_timing" \
		lab_commit="$(git -C "$lab" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$lab" diff --quiet HEAD 2>/dev/null || echo -dirty)" \
		options="profile=$profile benches=$benches workloads=$workloads boots=$boots clock=$clock memory_timing=$memory_timing exec=${exec_cmd:+yes}$([ "$no_prealloc" = 0 ] || echo ' prealloc=off')" \
		"${k[@]+"${k[@]}"}" || exit $?	# its one line names the file
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
	check_space "$results"
	groups=()
	if [ ${#topologies[@]} -gt 1 ] && [ -z "$exec_cmd" ]; then
		groups=("${topologies[@]}")
	else
		groups=("")	# one run of every topology
	fi
	runs=() plan_lines=()
	for g in "${groups[@]}"; do
		if [ -n "$g" ]; then new_run "$g"; n=$boots; else new_run "${topologies[@]}"; n=$((${#topologies[@]} * boots)); fi
		run=$(realpath "$run")
		runs+=("$run")
		for id in $(seq 1 "$n"); do
			plan_lines+=("$(printf 'cd %q && ./run-lab.sh --resume %q --only-boot %d -q' "$lab" "$run" "$id")")
		done
	done
	printf '%s\n' "${plan_lines[@]}"
	# On stderr, as a shell script (with -q, stderr holds nothing else).
	{
		what="finish the run"
		[ ${#runs[@]} -eq 1 ] || what="finish each run"
		[ -n "$exec_cmd" ] || what+=" and write its report"
		[ ${#runs[@]} -eq 1 ] || what+=", then the comparison"
		echo "# once the ${#plan_lines[@]} boot(s) above have all finished, $what:"
		for r in "${runs[@]}"; do printf 'cd %q && ./run-lab.sh --resume %q\n' "$lab" "$r"; done
		[ ${#runs[@]} -eq 1 ] || { printf 'cd %q && ./run-lab.sh compare' "$lab"; printf ' %q' "${runs[@]}"; echo; }
	} >&2
	exit 0
fi

kernel_dir() { "$lab/kernel/build.sh" --flavor "$kernel" "$@"; }

qemu_version=$(qemu-system-x86_64 --version | head -n 1)
# qemu_cmd TOPOLOGY KERNEL INITRD CONSOLE CHANNEL ACCEL MEMTIMING-FILE -> the array qemu,
# the whole command as labtool builds it (lab/qemu.c)
qemu_cmd() {
	local f args=(--kernel "$2" --initrd "$3" --console "$4" --channel "$5" --accel "$6" --clock "$clock")
	[ "$no_prealloc" = 0 ] || args+=(--no-prealloc)
	[ "$memory_timing" = off ] ||
		args+=(--memory-timing-out "$7" --plugin "$lab/build/plugin/tiermem.so" --qemu-version "$qemu_version")
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
auto) if [ "$clock" = icount ] || [ "$memory_timing" = count ]; then accel=tcg; else say "probing KVM"; accel=$(probe_kvm); fi ;;
kvm) [ -w /dev/kvm ] || die "--accel kvm: /dev/kvm is not usable" ;;
esac
say "accelerator: $accel, clock: $clock"

# --- several machines: one run each, then a comparison ---------------------------
# Each topology gets its own run directory (its own report, resumable on its
# own); the comparison report puts them side by side.
if [ ${#topologies[@]} -gt 1 ] && [ -z "$resume" ] && [ -z "$exec_cmd" ]; then
	runs=() worst=0
	for t in "${topologies[@]}"; do
		say "== $(basename "$t" .yaml)"
		where=$(mktemp "${TMPDIR:-/tmp}/tierlab-run.XXXXXX")
		rc=0
		args=(--profile "$profile" --benches "$benches" --workloads "$workloads" --kernel "$kernel"
			--accel "$accel" --clock "$clock" --boots "$boots" --idle-timeout "$idle_timeout"
			--boot-timeout "$boot_timeout" -j "$jobs" --results "$results" --fits "$fits"
			--memory-timing "$memory_timing")
		[ -z "$step_timeout" ] || args+=(--step-timeout "$step_timeout")
		[ "$no_prealloc" = 0 ] || args+=(--no-prealloc)
		[ "$quiet" = 0 ] || args+=(-q)
		for a in "${adds[@]+"${adds[@]}"}"; do args+=(--add "$a"); done
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
	[ -w "$run" ] || die "$run: the run directory is not writable"
	check_space "$run"
	say "resuming $run"
	# a run begun before labtool meta wrote meta.json at its start
	[ -n "$only_boot" ] || [ -f "$run/meta.json" ] || meta_init "${topologies[@]}"
else
	check_space "$results"
	new_run "${topologies[@]}"
fi

# plan_token: percent-encode one plan token
plan_token() {
	local s=$1 out= c i
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in [A-Za-z0-9._,:+=/-]) out+=$c ;; *) out+=$(printf '%%%02X' "'$c") ;; esac
	done
	printf '%s' "$out"
}

# One boot: plan, initramfs, QEMU under the watchdog, collect.  Leaves
# boots/ID.status when it completed (whatever its outcome), which is what
# --resume looks for; an interrupted boot leaves none and is redone.
do_boot() {
	local id=$1 t=$2 name stage qrc=0 crc=0 line
	name=$(basename "$t" .yaml)
	stage=$work/boot-$id
	rm -rf "$stage"
	mkdir -p "$stage/root/lab" "$stage/root/bin"
	if [ -n "$exec_cmd" ]; then
		{
			echo "boot $id"
			echo "step exec ${step_timeout:-$boot_timeout} sh -c $(plan_token "$exec_cmd")"
		} > "$stage/root/lab/plan"
	else
		"$labtool" plan "$t" --boot-id "$id" --profile "$profile" --clock "$clock" ${step_timeout:+--step-timeout "$step_timeout"} \
			--benches "$benches" --workloads "$workloads" > "$stage/root/lab/plan" || return 2
	fi
	for a in "${adds[@]+"${adds[@]}"}"; do cp "$a" "$stage/root/bin/"; done
	(cd "$stage/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
		cat "$lab/build/initramfs.cpio" - > "$stage/initrd"
	cp "$stage/root/lab/plan" "$run/raw/plan-$id.txt"
	qemu_cmd "$t" "$kdir/bzImage" "$stage/initrd" "$run/raw/console-$id.log" "$run/raw/channel-$id.log" "$accel" \
		"$run/raw/memtiming-$id.txt"
	rm -f "$run/raw/memtiming-$id.txt"
	printf '%q ' "${qemu[@]}" > "$run/raw/qemu-$id.cmd"
	say "boot $id/$total: $name ($accel, clock $clock, profile $profile)"
	local progress=
	[ "$quiet" = 1 ] || progress=yes
	"$labtool" boot --console "$run/raw/console-$id.log" --channel "$run/raw/channel-$id.log" \
		--idle "$idle_timeout" --wall "$boot_timeout" ${progress:+--progress "boot $id/$total"} \
		-- "${qemu[@]}" > "$run/raw/boot-$id.timing" &
	boot_pid=$!
	wait "$boot_pid" || qrc=$?
	# A signal interrupts wait, not the boot: wait again for the watchdog,
	# which has been told to kill QEMU.
	while kill -0 "$boot_pid" 2>/dev/null; do wait "$boot_pid" || qrc=$?; done
	rm -rf "$stage"
	boot_pid=
	[ "$interrupted" = 0 ] || return 130
	# labtool collect writes the boot's own files only (boots/ID.*): no lock
	line=$("$labtool" collect "$run" "$id" --topology "$name" --boot-rc "$qrc" \
		--memory-timing "$memory_timing" --topology-file "$t") || crc=$?
	# A failed boot or step is said even under -q.
	if [ "$crc" = 0 ]; then
		say "boot $id/$total: ${line#boot $id: }"
	else
		echo "run-lab: boot $id/$total: ${line#boot $id: }" >&2
	fi
	if [ -f "$run/boots/$id.panic.txt" ]; then
		sed -n '1,40p' "$run/boots/$id.panic.txt" | sed 's/^/    /' >&2
	fi
	[ -z "$exec_cmd" ] || cat "$run/boots/$id.out"
	outcome "$id"
}

# outcome ID: exit with a collected boot's outcome (labtool outcome: 3 the
# boot failed, else the --exec command's status, else 1 if a check or step
# failed or, for a topology's first boot, if the guest's view of the machine
# differs from the topology; checked again for a kept boot).
outcome() {
	local t=${boot_list[$1 - 1]} args=() rc=0 view
	if [ -n "$exec_cmd" ]; then
		args=(--exec)
	elif [ "$1" = "$(first_boot_of "$t")" ]; then
		args=(--guest-view "$t" --kernel-release "$release")
	fi
	view=$("$labtool" outcome "$run" "$1" "${args[@]+"${args[@]}"}") || rc=$?
	case $view in
	match) say "boot $1/$total: the guest's view matches $(basename "$t")" ;;
	# said even under -q
	differs) echo "run-lab: boot $1/$total: the guest's view of the machine differs from $t (above)" >&2 ;;
	esac
	return "$rc"
}

# Boot ids: 1..N over topologies x repetitions, in order.
boot_list=()
for t in "${topologies[@]}"; do
	for rep in $(seq 1 "$boots"); do boot_list+=("$t"); done
done
total=${#boot_list[@]}
first_boot_of() { local i; for i in "${!boot_list[@]}"; do [ "${boot_list[i]}" != "$1" ] || { echo $((i + 1)); return; }; done; }

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
		do_boot "$1" "$2" || rc=$?
	fi
	exec {lock}>&-
	echo "$rc" > "$work/rc-$1"
}
for i in "${!boot_list[@]}"; do
	id=$((i + 1))
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
		boot_and_record "$id" "${boot_list[i]}"
	else
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		boot_and_record "$id" "${boot_list[i]}" &
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
mapfile -d '' -t k < <(kernel_meta)
# (a newer lab's meta.json is refused in one line, exit 65, and left as it is)
"$labtool" meta end "$run" "${k[@]+"${k[@]}"}" || exit $?

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
