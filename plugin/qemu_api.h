/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin API (include/qemu/qemu-plugin.h) that
 * tiermem.c uses, declared here: Debian packages no header for it.  The
 * functions are resolved in the QEMU binary when it loads the plugin (`nm
 * -D qemu-system-x86_64 | grep qemu_plugin` lists them).
 *
 * One build for every QEMU from 7.2 on, two differences chosen at load
 * time (tiermem.c):
 *  - the API version the plugin declares.  QEMU refuses a
 *    qemu_plugin_version outside its [minimum, current]: 7.2 to 8.2 accept
 *    0..1, 9.0 on accept 2 and up (9.0 removed qemu_plugin_n_vcpus and
 *    qemu_plugin_n_max_vcpus and raised the minimum to 2 in the same
 *    commit).  QEMU reads the variable after dlopen(), so a constructor
 *    sets it: 1 when the QEMU loading us exports qemu_plugin_n_vcpus (weak
 *    here: NULL where it is gone), else 2.  Nothing of version 2's
 *    removals is used (the inline ops, n_vcpus), so both declarations
 *    promise what the plugin does.
 *  - qemu_plugin_insn_data: up to API version 2 it returns a pointer to the
 *    instruction's bytes; from version 3 (QEMU 9.1) it copies them into a
 *    buffer, (insn, dest, len) -> bytes copied.  QEMU calls it as it
 *    implements it whatever the plugin declared, so the form is chosen by
 *    the API version QEMU says is current (qemu_info_t.version.cur >= 3).
 *    Declared here as a bare symbol; tiermem.c casts it to the form in use.
 */
#ifndef TIERLAB_QEMU_API_H
#define TIERLAB_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
/* the API versions above: declared before 9.0, from 9.0; insn_data's copy form */
#define TIERLAB_QEMU_API_OLD 1
#define TIERLAB_QEMU_API_NEW 2
#define TIERLAB_QEMU_API_INSN_COPY 3

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_hwaddr;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

/* What the plugin exports. */
QEMU_PLUGIN_EXPORT extern int qemu_plugin_version;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv);

/* What QEMU provides. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
				      void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
/* the two forms of qemu_plugin_insn_data (above) */
typedef const void *(*qemu_plugin_insn_data_ptr_t)(const struct qemu_plugin_insn *insn);
typedef size_t (*qemu_plugin_insn_data_copy_t)(const struct qemu_plugin_insn *insn, void *dest,
					       size_t len);
void qemu_plugin_insn_data(void);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr);
bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *haddr);
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr);
/* QEMU before 9.0 only: weak, NULL in a QEMU without it (never called) */
__attribute__((weak, visibility("default"))) int qemu_plugin_n_vcpus(void);

#endif
