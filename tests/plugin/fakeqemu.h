/* SPDX-License-Identifier: GPL-2.0 */
/* fakeqemu.c's objects, shared with the driver that loads it (loadcheck.c). */
#ifndef TIERLAB_FAKEQEMU_H
#define TIERLAB_FAKEQEMU_H

#include <stddef.h>
#include <stdint.h>

struct fake_insn {
	uint8_t bytes[16];
	size_t len;
	/* what the plugin registered on it */
	void (*exec_cb)(unsigned int vcpu, void *udata);
	void *exec_udata;
	void (*mem_cb)(unsigned int vcpu, uint32_t info, uint64_t vaddr, void *udata);
	void *mem_udata;
};

struct fake_tb {
	struct fake_insn *insn;
	size_t n;
};

struct fake_hwaddr {
	uint64_t phys;
};

struct fake_state {
	void (*tb_trans)(uint64_t id, struct fake_tb *tb);
	void (*atexit)(uint64_t id, void *udata);
	void *atexit_udata;
	unsigned long insn_data_calls;
	struct fake_hwaddr hwaddr;
};

#endif
