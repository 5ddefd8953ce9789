// SPDX-License-Identifier: GPL-2.0
/*
 * tiermem: a QEMU TCG plugin that counts, per NUMA node, the guest's memory
 * reads, writes and simulated-LLC misses inside phases the guest marks
 * (README, "Memory timing"; the pure parts are memtiming.c).
 *
 *   -plugin file=tiermem.so,out=FILE,rule=doubled,node=0:0x0:0x40000000,...
 *
 * Every memory access gets a callback (QEMU translates code once, before
 * the guest says which phase it is in), which returns at once outside a
 * phase: boot and the steps between phases pay a call and a load per access,
 * not the LLC simulation.  A marker `nopl 0x71E5XXYY(%rax)` is found when
 * its block is translated and gets a callback of its own that begins (XX 1)
 * or ends (XX 2) phase YY, or asks for the address of the vCPU's next access
 * (XX 3, a probe the guest compares with /proc/self/pagemap).
 *
 * Memory-side caches (msc=ID:SIZE:WAYS:LINE:wb|wt, HMAT's; msc2=, msc3=
 * for levels 2 and 3): an LLC miss to such a node is looked up in the
 * node's level 1, then level 2, then 3, an LLC write-back lands in level 1
 * and what leaves a level goes on to the next (mt_hier_access).  Each
 * node's cache is one structure shared by every vCPU (struct mt_memside),
 * as the machine's is.
 *
 * No locks on the hot path: each vCPU has its own LLC and counters (under
 * MTTCG a vCPU's callbacks run on its own thread); the memory-side caches
 * are shared, each way one word updated with relaxed atomics (exact when
 * one thread runs the vCPUs, as under icount; under MTTCG two vCPUs
 * updating one set at once may lose or duplicate a line of it); the
 * current phase is one word, written by markers and read with relaxed
 * atomics.  The phase is machine-wide: a begin on one vCPU makes every
 * vCPU count into it.  Each phase starts with empty caches and is charged
 * the write-backs of the lines it leaves dirty (llc_settle,
 * mt_hier_settle): each vCPU empties its own LLC when it first counts in a
 * later phase, the first of them the memory-side caches too.
 * The report is written once, when QEMU exits (via FILE.tmp and rename).
 *
 * Delay injection (delay=DILATION, lat=ID:NS, msc_lat=ID:NS;
 * --memory-timing delay, experimental): inside a phase, each LLC miss also
 * makes its vCPU wait on the host for mt_delay_ns(): the read latency of
 * where it was served (a priced level-1 memory-side cache's, else the
 * node's; mt_delay_of) dilated, less what the miss already cost TCG.
 * That cost is calibrated once per boot, by the first MT_PHASE_CALIB phase
 * (chase's calibration walk, not delayed):
 * the CPU time of the vCPU thread from its begin to its end marker over
 * its misses.  The waits are paid in epochs, spinning to a deadline on
 * CLOCK_MONOTONIC, with the host time the thread did not run credited
 * (struct mt_pace).  A phase's delays are paid by its end: by the vCPU
 * that ends it at the end marker, by the others at their next access
 * outside a phase, and dropped if their next access is in a later phase
 * (mt_pace_boundary).
 * Waiting is per vCPU, on its own thread: no lock either.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memtiming.h"
#include "qemu_api.h"

/* the API version declared: set at load by pick_api_version (qemu_api.h) */
QEMU_PLUGIN_EXPORT int qemu_plugin_version = TIERLAB_QEMU_API_OLD;

/*
 * Runs when QEMU dlopen()s the plugin, before it reads qemu_plugin_version:
 * a QEMU that still exports qemu_plugin_n_vcpus (before 9.0) accepts 1
 * only, one without it wants 2 at least.
 */
__attribute__((constructor)) static void pick_api_version(void)
{
	qemu_plugin_version = qemu_plugin_n_vcpus ? TIERLAB_QEMU_API_OLD : TIERLAB_QEMU_API_NEW;
}

/* this QEMU's qemu_plugin_insn_data: the one of the two forms it has, set at install */
static qemu_plugin_insn_data_ptr_t insn_data_ptr;
static qemu_plugin_insn_data_copy_t insn_data_copy;

#define MAX_PHASES 4096
#define MAX_PROBES 4096

struct vcpu {
	struct mt_hier cache;	/* its LLC; the memory-side caches are memside */
	struct mt_count (*count)[MT_MAX_NODES + 1];	/* [phase][node] */
	uint64_t *io;					/* [phase] */
	unsigned int llc_phase;	/* index + 1 of the phase whose lines the caches hold, 0 none */
	bool probe_pending;
	struct mt_pace pace;	/* delay injection: what this vCPU owes */
	uint64_t dropped_ns;	/* owed at a phase boundary and dropped */
} __attribute__((aligned(64)));

static struct mt_config cfg;
static struct mt_memside memside;	/* every node's memory-side caches, shared */
static struct vcpu *vcpus;
static unsigned int nvcpus;
/* the phase being counted: its index + 1, 0 for none */
static unsigned int active;
static unsigned int nphases, nprobes;
static struct mt_phase *phases;	/* id and closed only; counts are per vCPU */
static struct mt_probe probes[MAX_PROBES];
/* phases past MAX_PHASES, probes past MAX_PROBES, ends with no phase open */
static uint64_t dropped;
/*
 * delay injection: each node's wait per miss (by index), its level-1
 * memory-side cache's per hit (when priced: cfg.msc_lat_ns), the calibration
 */
static uint64_t delay_ns[MT_MAX_NODES], msc_delay_ns[MT_MAX_NODES];
static unsigned int calib_seq;	/* the calibration phase's index + 1 while it runs, else 0 */
static uint64_t calib_t0;	/* the CPU time of the thread of calib_vcpu at its begin */
static unsigned int calib_vcpu;
static struct mt_calib calib;	/* written by the marker that ends the calibration */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's CPU time: a vCPU's callbacks run on its thread. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Pays what vCPU @v owes, less its credit: spins to the deadline on the
 * wall clock; the spin's overshoot (the thread preempted past it) is
 * credited.  Not a sleep: on this host a 1 ms sleep woke ~0.35 ms late
 * and, after it, TCG's own CPU time per miss was 1.5 (DRAM) to 2.5
 * (PMEM) times the calibration's (the VM's timer exits, the caches other
 * processes left), which no credit sees: ratios 3.50-3.82 in 3 boots
 * against 3.71-3.83 spinning.
 */
static void pace_pay(struct vcpu *v)
{
	uint64_t wall = now_ns(), pay = mt_pace_settle(&v->pace, wall, cpu_ns()), t = wall;

	if (pay)
		do
			t = now_ns();
		while (t - wall < pay);
	mt_pace_mark(&v->pace, t, cpu_ns(), wall + pay);
}

/*
 * "tiermem: WHAT: WHY" on QEMU's stderr: qemu_plugin_outs() writes only
 * with -d plugin, and a plugin that cannot run must say why.
 */
static void say(const char *what, const char *why)
{
	fprintf(stderr, "tiermem: %s%s%s\n", what, *why ? ": " : "", why);
}

/*
 * The calibration phase @a ended on vCPU @vi: its thread's CPU time over
 * the misses this vCPU counted in it (chase pins its walk to CPU 0, whose
 * thread runs both markers), and every node's wait from now on.
 */
static void calib_end(unsigned int vi, unsigned int a)
{
	uint64_t host = cpu_ns() - calib_t0, misses = 0;

	__atomic_store_n(&calib_seq, 0, __ATOMIC_RELEASE);
	/* another thread's CPU clock would say nothing: no calibration */
	if (vi >= nvcpus || vi != calib_vcpu)
		return;
	for (int i = 0; i < cfg.map.n; i++)
		misses += vcpus[vi].count[a - 1][i].misses;
	if (!misses)
		return;
	calib.phase = a;
	calib.host_ns = host;
	calib.misses = misses;
	calib.ns_per_miss = mt_calib_ns_per_miss(host, misses);
	for (int i = 0; i < cfg.map.n; i++) {
		__atomic_store_n(&delay_ns[i], mt_delay_ns(cfg.dilation, cfg.lat_ns[i], calib.ns_per_miss),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&msc_delay_ns[i],
				 mt_delay_ns(cfg.dilation, cfg.msc_lat_ns[i], calib.ns_per_miss),
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&calib.done, true, __ATOMIC_RELEASE);
}

static void on_marker(unsigned int vi, void *udata)
{
	unsigned int op = (unsigned int)(uintptr_t)udata >> 8, id = (uintptr_t)udata & 0xff;
	unsigned int a, seq;

	switch (op) {
	case MT_OP_BEGIN:
		seq = __atomic_fetch_add(&nphases, 1, __ATOMIC_RELAXED);
		if (seq >= MAX_PHASES) {
			__atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&active, 0, __ATOMIC_RELAXED);
			return;
		}
		phases[seq].id = id;
		if (cfg.dilation && id == MT_PHASE_CALIB && !__atomic_load_n(&calib.done, __ATOMIC_ACQUIRE)) {
			calib_t0 = cpu_ns();
			calib_vcpu = vi;
			__atomic_store_n(&calib_seq, seq + 1, __ATOMIC_RELEASE);
		}
		/* an open phase ends here, unclosed: the report says so */
		__atomic_store_n(&active, seq + 1, __ATOMIC_RELEASE);
		break;
	case MT_OP_END:
		a = __atomic_exchange_n(&active, 0, __ATOMIC_ACQ_REL);
		if (a && phases[a - 1].id == id)
			phases[a - 1].closed = true;
		else if (!a)
			__atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
		if (a && a == __atomic_load_n(&calib_seq, __ATOMIC_ACQUIRE))
			calib_end(vi, a);
		/* the phase's last delays, before the guest reads its clock */
		if (cfg.dilation && vi < nvcpus) {
			pace_pay(&vcpus[vi]);
			memset(&vcpus[vi].pace, 0, sizeof(vcpus[vi].pace));
		}
		break;
	case MT_OP_PROBE:
		if (vi < nvcpus)
			vcpus[vi].probe_pending = true;
		break;
	}
}

static void probe_record(uint64_t vaddr, uint64_t raw, uint64_t offset, int node)
{
	unsigned int k = __atomic_fetch_add(&nprobes, 1, __ATOMIC_RELAXED);

	if (k >= MAX_PROBES) {
		__atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
		return;
	}
	probes[k] = (struct mt_probe){ vaddr, raw, offset, node };
}

/*
 * Each phase starts with empty caches (the LLC and the memory-side
 * caches), so what a case counts does not depend on the case before it
 * (tierbench shuffles their order), and is charged the write-back of every
 * line it left dirty: the vCPU's LLC when it first accesses memory in
 * phase @to (0: at exit), the memory-side caches by the first vCPU to do
 * so (mt_hier_settle), or at exit.  Only the vCPU's own thread touches its
 * LLC and counts; the shared caches are moved on by a compare-and-swap:
 * no lock.
 */
static void llc_settle(struct vcpu *v, unsigned int to)
{
	mt_hier_settle(&v->cache, &cfg.map, v->count, v->llc_phase, to);
	v->llc_phase = to;
}

static void on_mem(unsigned int vi, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	unsigned int a = __atomic_load_n(&active, __ATOMIC_RELAXED);
	struct qemu_plugin_hwaddr *h;
	struct vcpu *v;
	struct mt_count *c;
	enum mt_level at;
	uint64_t raw, off;
	bool store;
	int i;

	(void)udata;
	if (vi >= nvcpus)
		return;
	v = &vcpus[vi];
	/* owed from a phase that has ended: paid now, outside any phase */
	if (!a && cfg.dilation && mt_pace_boundary(&v->pace, v->llc_phase, 0) == MT_PACE_PAY) {
		pace_pay(v);
		memset(&v->pace, 0, sizeof(v->pace));
	}
	if (!a && !v->probe_pending)
		return;
	h = qemu_plugin_get_hwaddr(info, vaddr);
	if (!h) {
		/* no address to report: the probe says so rather than taking the next access's */
		if (v->probe_pending) {
			v->probe_pending = false;
			probe_record(vaddr, 0, 0, -1);
		}
		return;
	}
	store = qemu_plugin_mem_is_store(info);
	if (qemu_plugin_hwaddr_is_io(h)) {
		if (v->probe_pending) {
			v->probe_pending = false;
			probe_record(vaddr, 0, 0, -2);
		}
		if (a)
			v->io[a - 1]++;
		return;
	}
	raw = qemu_plugin_hwaddr_phys_addr(h);
	i = mt_map_addr(&cfg.map, raw, &off);
	if (v->probe_pending) {
		v->probe_pending = false;
		probe_record(vaddr, raw, i < 0 ? 0 : off, i < 0 ? -1 : cfg.map.node[i].id);
	}
	if (!a)
		return;
	if (v->llc_phase != a) {
		/*
		 * Owed from an earlier phase and not paid after it (no access
		 * between the phases): dropped, never paid in this one
		 * (mt_pace_boundary); the credit is the phase's own.
		 */
		if (cfg.dilation) {
			if (mt_pace_boundary(&v->pace, v->llc_phase, a) == MT_PACE_DROP)
				v->dropped_ns += v->pace.pending;
			memset(&v->pace, 0, sizeof(v->pace));
		}
		llc_settle(v, a);
	}
	c = &v->count[a - 1][i < 0 ? MT_NODE_NONE : i];
	if (store)
		c->writes++;
	else
		c->reads++;
	if (i < 0)
		return;
	at = mt_hier_access(&v->cache, &cfg.map, i, off, store, v->count[a - 1]);
	/* an LLC miss waits where it was served: a priced level-1 cache's latency, else the node's */
	if (at != MT_AT_LLC && cfg.dilation && a != __atomic_load_n(&calib_seq, __ATOMIC_RELAXED) &&
	    mt_pace_owe(&v->pace, mt_delay_of(&cfg, delay_ns, msc_delay_ns, i, at)))
		pace_pay(v);
}

/*
 * Is @insn a marker?  Its bytes through the qemu_plugin_insn_data of this
 * QEMU (qemu_api.h): a marker is 7 bytes, so a longer instruction is none.
 */
static bool insn_marker(const struct qemu_plugin_insn *insn, struct mt_marker *m)
{
	size_t len = qemu_plugin_insn_size(insn);
	uint8_t bytes[8];

	if (insn_data_ptr)
		return mt_marker_decode(insn_data_ptr(insn), len, m);
	if (len > sizeof(bytes))
		return false;
	return insn_data_copy(insn, bytes, len) == len && mt_marker_decode(bytes, len, m);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		struct mt_marker m;

		if (insn_marker(insn, &m))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)((unsigned int)m.op << 8 | m.id));
		else
			qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void on_exit_write(qemu_plugin_id_t id, void *udata)
{
	unsigned int np = nphases < MAX_PHASES ? nphases : MAX_PHASES;
	unsigned int nk = nprobes < MAX_PROBES ? nprobes : MAX_PROBES;
	char *tmp;
	FILE *f;
	int rc;

	(void)id;
	(void)udata;
	/* the last phase's dirty lines: its write-backs (QEMU's vCPUs have stopped) */
	for (unsigned int vi = 0; vi < nvcpus; vi++) {
		llc_settle(&vcpus[vi], 0);
		/* what a vCPU still owed when QEMU stopped was never waited either */
		calib.dropped_ns += vcpus[vi].dropped_ns + vcpus[vi].pace.pending;
	}
	/* then the memory-side caches', charged to the phase they hold (any vCPU's counts: summed below) */
	if (nvcpus)
		mt_memside_claim(&memside, &cfg.map, vcpus[0].count, 0);
	for (unsigned int p = 0; p < np; p++)
		for (unsigned int vi = 0; vi < nvcpus; vi++) {
			phases[p].io += vcpus[vi].io[p];
			for (int i = 0; i <= MT_MAX_NODES; i++)
				mt_count_add(&phases[p].count[i], &vcpus[vi].count[p][i]);
		}
	/* MT_NODE_NONE is the last slot of every count array */
	if (asprintf(&tmp, "%s.tmp", cfg.out) < 0)
		return;
	f = fopen(tmp, "w");
	if (!f) {
		say(tmp, "cannot write the report");
		free(tmp);
		return;
	}
	rc = mt_report_write(f, &cfg, &calib, phases, np, probes, nk, dropped);
	if (fclose(f) || rc || rename(tmp, cfg.out))
		say(cfg.out, "writing the report failed");
	free(tmp);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	char err[256];

	if (!info->system_emulation) {
		say("needs system emulation (qemu-system-*)", "");
		return -1;
	}
	if (mt_parse_args(argc, argv, &cfg, err, sizeof(err))) {
		say(err, "");
		return -1;
	}
	if (info->version.cur >= TIERLAB_QEMU_API_INSN_COPY)
		insn_data_copy = (qemu_plugin_insn_data_copy_t)qemu_plugin_insn_data;
	else
		insn_data_ptr = (qemu_plugin_insn_data_ptr_t)qemu_plugin_insn_data;
	nvcpus = info->system.max_vcpus > 0 ? (unsigned int)info->system.max_vcpus : 1;
	/* struct vcpu is cache-line aligned (no false sharing): calloc promises 16 bytes */
	if (posix_memalign((void **)&vcpus, _Alignof(struct vcpu), nvcpus * sizeof(*vcpus)))
		vcpus = NULL;
	else
		memset(vcpus, 0, nvcpus * sizeof(*vcpus));
	phases = calloc(MAX_PHASES, sizeof(*phases));
	if (!vcpus || !phases) {
		say("out of memory", "");
		return -1;
	}
	/* before a calibration: the dilated latency, nothing taken off */
	for (int i = 0; i < cfg.map.n; i++) {
		delay_ns[i] = mt_delay_ns(cfg.dilation, cfg.lat_ns[i], 0);
		msc_delay_ns[i] = mt_delay_ns(cfg.dilation, cfg.msc_lat_ns[i], 0);
	}
	if (mt_memside_init(&memside, &cfg, err, sizeof(err))) {
		say(err, "");
		return -1;
	}
	for (unsigned int vi = 0; vi < nvcpus; vi++) {
		struct vcpu *v = &vcpus[vi];

		if (mt_hier_init(&v->cache, &cfg, &memside, err, sizeof(err))) {
			say(err, "");
			return -1;
		}
		/* calloc'd: only the pages of phases that happen are touched */
		v->count = calloc(MAX_PHASES, sizeof(*v->count));
		v->io = calloc(MAX_PHASES, sizeof(*v->io));
		if (!v->count || !v->io) {
			say("out of memory", "");
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_write, NULL);
	return 0;
}
