// SPDX-License-Identifier: GPL-2.0
/*
 * fakeqemu: the part of QEMU's plugin API tiermem.so calls, as a shared
 * library a test loads before the plugin (tests/plugin/loadcheck.c), so
 * that the plugin's choices at load time are tried without a QEMU of each
 * kind (plugin/qemu_api.h):
 *
 *   -DFAKE_N_VCPUS -DFAKE_INSN_PTR: a QEMU before 9.0 (qemu_plugin_n_vcpus
 *     exported, qemu_plugin_insn_data returning a pointer);
 *   -DFAKE_INSN_PTR: QEMU 9.0 (no n_vcpus, insn_data still a pointer);
 *   neither: QEMU 9.1 on (no n_vcpus, insn_data copying).
 *
 * A translation block is an array of struct fake_insn (bytes, length);
 * what the plugin registers is kept for the driver (fake_state).  Memory
 * accesses: the meminfo is the store flag, the hwaddr a struct holding the
 * physical address.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fakeqemu.h"

__attribute__((visibility("default"))) struct fake_state fake_state;

#ifdef FAKE_N_VCPUS
__attribute__((visibility("default"))) int qemu_plugin_n_vcpus(void)
{
	return 1;
}
#endif

#ifdef FAKE_INSN_PTR
__attribute__((visibility("default"))) const void *qemu_plugin_insn_data(const struct fake_insn *insn)
{
	fake_state.insn_data_calls++;
	return insn->bytes;
}
#else
__attribute__((visibility("default"))) size_t qemu_plugin_insn_data(const struct fake_insn *insn,
								     void *dest, size_t len)
{
	fake_state.insn_data_calls++;
	if (len > insn->len)
		len = insn->len;
	memcpy(dest, insn->bytes, len);
	return len;
}
#endif

__attribute__((visibility("default"))) size_t qemu_plugin_insn_size(const struct fake_insn *insn)
{
	return insn->len;
}

__attribute__((visibility("default"))) size_t qemu_plugin_tb_n_insns(const struct fake_tb *tb)
{
	return tb->n;
}

__attribute__((visibility("default"))) struct fake_insn *qemu_plugin_tb_get_insn(const struct fake_tb *tb,
										 size_t idx)
{
	return idx < tb->n ? &tb->insn[idx] : NULL;
}

__attribute__((visibility("default"))) void
qemu_plugin_register_vcpu_tb_trans_cb(uint64_t id, void (*cb)(uint64_t, struct fake_tb *))
{
	(void)id;
	fake_state.tb_trans = cb;
}

__attribute__((visibility("default"))) void
qemu_plugin_register_atexit_cb(uint64_t id, void (*cb)(uint64_t, void *), void *udata)
{
	(void)id;
	fake_state.atexit = cb;
	fake_state.atexit_udata = udata;
}

__attribute__((visibility("default"))) void
qemu_plugin_register_vcpu_insn_exec_cb(struct fake_insn *insn, void (*cb)(unsigned int, void *),
				       int flags, void *udata)
{
	(void)flags;
	insn->exec_cb = cb;
	insn->exec_udata = udata;
}

__attribute__((visibility("default"))) void
qemu_plugin_register_vcpu_mem_cb(struct fake_insn *insn,
				 void (*cb)(unsigned int, uint32_t, uint64_t, void *), int flags, int rw,
				 void *udata)
{
	(void)flags;
	(void)rw;
	insn->mem_cb = cb;
	insn->mem_udata = udata;
}

__attribute__((visibility("default"))) bool qemu_plugin_mem_is_store(uint32_t info)
{
	return info & 1;
}

/* the hwaddr of every access: set by the driver before it runs an access */
__attribute__((visibility("default"))) struct fake_hwaddr *qemu_plugin_get_hwaddr(uint32_t info,
										   uint64_t vaddr)
{
	(void)info;
	(void)vaddr;
	return &fake_state.hwaddr;
}

__attribute__((visibility("default"))) bool qemu_plugin_hwaddr_is_io(const struct fake_hwaddr *h)
{
	(void)h;
	return false;
}

__attribute__((visibility("default"))) uint64_t qemu_plugin_hwaddr_phys_addr(const struct fake_hwaddr *h)
{
	return h->phys;
}
