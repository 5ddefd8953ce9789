/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The labtool subcommands: one X-macro list makes the dispatch table and the
 * usage text, so they never drift apart.  X(name, args, help); each command
 * is `int cmd_<name>(int argc, char **argv)` in its own file, with argv[0]
 * being the command name.
 */
#ifndef TIERLAB_COMMANDS_H
#define TIERLAB_COMMANDS_H

#include <stdbool.h>

#define LABTOOL_COMMANDS(X)                                                    \
	X(validate, "TOPOLOGY.yaml", "check a topology file; exit 65 if invalid") \
	X(qemu_args, "[--no-prealloc] TOPOLOGY.yaml", "print QEMU machine/NUMA/HMAT args, one per line") \
	X(qemu_argv, "TOPOLOGY.yaml --kernel F ...", "print a boot's whole QEMU command, NUL-separated") \
	X(nodes, "TOPOLOGY.yaml KIND|LIST", "print the node ids of a kind (pmem, hbm, ...)") \
	X(describe, "TOPOLOGY.yaml", "print the machine model as key=value lines") \
	X(expect, "TOPOLOGY.yaml", "print the guest view the file promises (CSV)") \
	X(check_guest, "TOPOLOGY.yaml GUEST.csv", "compare the guest's view with the file") \
	X(args, "--lab DIR [--names] -- RUN-LAB-ARGS...", "check run-lab's options, print them for its shell") \
	X(init, "[--run RUN-DIR] [META-ARGS] -- OPTIONS...", "create a run directory: run.args, started, meta.json") \
	X(accel, "--kernel-dir D --initramfs F -- OPTIONS...", "print the run's accelerator (tcg, kvm: --accel auto probes)") \
	X(print_qemu, "--kernel-dir D ... -- OPTIONS...", "run-lab --print-qemu: each topology's QEMU command, one line") \
	X(disks, "DIR", "make the guest's swap and ext4 disks, DIR/swap.img and DIR/fs.img") \
	X(multi, "[-q] RUN-LAB -- OPTIONS... TOPOLOGY...", "run-lab with several topologies: one run each, then compare") \
	X(plan, "TOPOLOGY.yaml [options]", "write the guest plan for one boot") \
	X(prepare, "RUN-DIR BOOT-ID --kernel F --initrd F ...", "write a boot's plan and QEMU command, print its argv") \
	X(collect, "RUN-DIR BOOT-ID [options]", "parse a boot's channel into its rows and files") \
	X(outcome, "RUN-DIR BOOT-ID [--exec] [--guest-view T --kernel-release R]", "exit with a collected boot's outcome") \
	X(worst, "CODE...", "print the worst of several boots' exit codes (3 a failed boot over 4 a failed command)") \
	X(finish, "RUN-DIR", "write summary.csv and guest-topology.csv from the boots' files") \
	X(report, "RUN-DIR", "regenerate plots and report.html/report.md of a run") \
	X(compare, "RUN-DIR RUN-DIR...", "compare runs side by side, differences with CIs") \
	X(meta, "init|end|get RUN-DIR ...", "write meta.json (its one writer) or read a key of it") \
	X(boot, "--console F --channel F -- QEMU...", "run QEMU under an idle/wall watchdog") \
	X(memtiming_arg, "TOPOLOGY.yaml --qemu-version L --plugin SO --out F [--memory-timing count|delay]", "print -plugin's value for --memory-timing count or delay")

#define X(name, args, help) int cmd_##name(int argc, char **argv);
LABTOOL_COMMANDS(X)
#undef X

/*
 * The value of "key=" in a line of space-separated key=value words, matched
 * at a word's start only, into @buf (truncated to @size); NULL if absent.
 */
const char *word_after(const char *s, const char *key, char *buf, size_t size);
/* @s as a whole decimal number in [1, @max], else -1. */
long parse_count(const char *s, long max);

struct topo;
struct sbuf;
/*
 * The cost model's figures for a plan step (cmd_plan.c): " --model-hmat
 * N=RL/WL/RB/WB,..." seen from CPU 0's node, and " --model-cache-hmat ..."
 * for the memory-side caches whose figures the topology gives from that
 * node; nothing without HMAT.
 */
void plan_model_args(const struct topo *t, struct sbuf *sb);
/*
 * A plan with --memory-timing count or delay whose benchmarks @names and
 * @nworkloads workloads mark no phase, or delay without chase (its
 * calibration): 1 and the one-line warning in @buf, else 0.
 */
enum acct_mode;
int plan_memtiming_warning(enum acct_mode mode, const char *const *names, int n, int nworkloads,
			   char *buf, size_t len);
struct needs;
/*
 * Why the topology cannot meet a benchmark's declared needs (bench/needs.h)
 * for a step on the nodes of mask @target, or NULL (cmd_plan.c).
 */
const char *plan_needs_unmet(const struct topo *t, unsigned long long target,
			     const struct needs *n, char *why, size_t len);
/* `labtool plan`'s plan for its options (argv[0] "plan") into @out: 0 or an exit code. */
int plan_text(int argc, char **argv, struct sbuf *out);
/* One plan token, percent-encoded (README, "Guest plan"): all but A-Za-z0-9._,:+=/- as %XX. */
void sb_plan_token(struct sbuf *b, const char *s);
/* A plan's first lines: "boot ID", and under --clock icount (@icount) "align 1". */
void plan_begin(struct sbuf *plan, const char *boot, bool icount);
/*
 * The plan of --exec CMD: plan_begin's lines, the topology's movable memory
 * onlined and hugetlb pools reserved (@t, may be NULL), then one step
 * running CMD under sh -c with its stderr joined to its stdout.
 */
void plan_exec(const char *boot, bool icount, long timeout, const char *cmd,
	       const struct topo *t, struct sbuf *out);
/*
 * With movable nodes, the plan's first step: their hot-added memory, left
 * offline by the kernel, onlined movable (topoprobe --online-movable).
 */
void plan_online(const struct topo *t, struct sbuf *plan);
/* One step per node with hugetlb_pages: the topology's 2 MiB pools, reserved at boot. */
void plan_hugetlb(const struct topo *t, struct sbuf *plan);

/* Exit codes shared by all commands (sysexits.h values). */
#define EXIT_USAGE 64    /* bad command line */
#define EXIT_INVALID 65  /* input file is invalid */
#define EXIT_NOINPUT 66  /* input file missing or unreadable */
#define EXIT_SOFTWARE 70 /* internal error */
#define EXIT_IOERR 74    /* cannot write output */

#endif
