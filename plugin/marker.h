/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Phase markers, shared by the guest (bench/phase.c, bench/chase.c) and the plugin
 * (memtiming.c): `nopl 0x71E5XXYY(%rax)`, bytes 0f 1f 80 YY XX e5 71, a
 * 7-byte NOP that touches no memory.  XX is the operation, YY the phase id
 * the guest chose (0..255).  Without the plugin they cost a NOP.
 */
#ifndef TIERLAB_PLUGIN_MARKER_H
#define TIERLAB_PLUGIN_MARKER_H

#define MT_MARK_MAGIC 0x71E5u
enum mt_op { MT_OP_BEGIN = 1, MT_OP_END = 2, MT_OP_PROBE = 3 };
#define MT_MARK_DISP(op, id) ((MT_MARK_MAGIC << 16) | ((unsigned)(op) << 8) | (unsigned)(id))

/*
 * Phase ids, one per kind of phase: the host labels each plugin phase with
 * the next PHASE line of its id (lab/boot/accounting.c), so a kind whose line
 * went missing cannot shift the labels of another kind.
 */
enum mt_phase_id {
	MT_PHASE_CHASE = 1,	/* bench/chase.c: one walk */
	MT_PHASE_CASE = 2,	/* a tierbench case's touch work (bench/phase.c) */
	MT_PHASE_WORKLOAD = 3,	/* wlrun: one workload, fork to reap */
	/*
	 * bench/chase.c: one walk, never delayed, that calibrates delay
	 * injection (--memory-timing delay): its host ns per miss.
	 */
	MT_PHASE_CALIB = 4,
};

#if defined(__x86_64__)
/* A marker; @id must be a constant. */
#define MT_MARK(op, id) \
	__asm__ __volatile__("nopl %c0(%%rax)" : : "i"(MT_MARK_DISP(op, id)) : "memory")
#endif

#endif
