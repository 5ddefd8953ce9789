// SPDX-License-Identifier: GPL-2.0
/*
 * loadcheck: loads tiermem.so the way a QEMU does, over fakeqemu.so in
 * place of the QEMU binary, and drives one phase through it.
 *
 *   loadcheck FAKEQEMU.so PLUGIN.so API_CUR REPORT
 *
 * FAKEQEMU.so first (its qemu_plugin_* symbols global, as a QEMU binary's
 * are), then the plugin; prints the qemu_plugin_version the plugin declared
 * ("version=N"), installs it with info.version.cur API_CUR, translates one
 * block (phase 2's begin marker, a load, its end marker), prints what the
 * plugin registered ("markers=N mem=N"), runs the block with the load
 * repeated over 10 cache lines of node 1 and exits QEMU's way (the atexit
 * callback), which writes REPORT.  Exit 0, or 1 with the step that failed.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakeqemu.h"
#include "qemu_api.h"

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "loadcheck: %s: %s\n", what, why ? why : "failed");
	return 1;
}

/* `nopl 0x71E5XXYY(%rax)`: 0f 1f 80, then the displacement little-endian (plugin/marker.h) */
static void marker(struct fake_insn *insn, unsigned int op, unsigned int id)
{
	const uint8_t b[7] = { 0x0f, 0x1f, 0x80, (uint8_t)id, (uint8_t)op, 0xe5, 0x71 };

	memcpy(insn->bytes, b, sizeof(b));
	insn->len = sizeof(b);
}

int main(int argc, char **argv)
{
	int (*install)(qemu_plugin_id_t, const qemu_info_t *, int, char **);
	struct fake_insn insn[3] = { 0 };
	struct fake_tb tb = { insn, 3 };
	struct fake_state *st;
	qemu_info_t info = { 0 };
	void *fake, *plugin;
	char *out;
	int *version;

	if (argc != 5)
		return fail("usage", "loadcheck FAKEQEMU.so PLUGIN.so API_CUR REPORT");
	/* each dl call's error read before the next call clears it */
	fake = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
	if (!fake)
		return fail(argv[1], dlerror());
	st = dlsym(fake, "fake_state");
	if (!st)
		return fail(argv[1], dlerror());
	plugin = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
	if (!plugin)
		return fail(argv[2], dlerror());
	version = dlsym(plugin, "qemu_plugin_version");
	if (!version)
		return fail(argv[2], dlerror());
	install = (int (*)(qemu_plugin_id_t, const qemu_info_t *, int, char **))dlsym(plugin,
										     "qemu_plugin_install");
	if (!install)
		return fail(argv[2], dlerror());
	printf("version=%d\n", *version);
	fflush(stdout);

	info.target_name = "x86_64";
	info.version.min = *version;
	info.version.cur = atoi(argv[3]);
	info.system_emulation = true;
	info.system.smp_vcpus = info.system.max_vcpus = 1;
	if (asprintf(&out, "out=%s", argv[4]) < 0)
		return fail("asprintf", NULL);
	/* dram-pmem's layout: node 0's GiB, then node 1's; RAM offsets are addresses (plain) */
	char *args[] = { out, "rule=plain", "node=0:0x0:0x40000000", "node=1:0x40000000:0x40000000" };

	if (install(1, &info, 4, args))
		return fail("qemu_plugin_install", "refused (above)");
	if (!st->tb_trans || !st->atexit)
		return fail("qemu_plugin_install", "no translation or exit callback registered");

	marker(&insn[0], 1, 2);
	insn[1].bytes[0] = 0x48;	/* mov (%rax),%rax */
	insn[1].bytes[1] = 0x8b;
	insn[1].bytes[2] = 0x00;
	insn[1].len = 3;
	marker(&insn[2], 2, 2);
	st->tb_trans(1, &tb);
	printf("markers=%d mem=%d insn_data=%lu\n", !!insn[0].exec_cb + !!insn[2].exec_cb,
	       !!insn[1].mem_cb + !!insn[0].mem_cb + !!insn[2].mem_cb, st->insn_data_calls);
	fflush(stdout);
	if (!insn[0].exec_cb || !insn[2].exec_cb || !insn[1].mem_cb)
		return fail("translation", "the markers or the load not recognised");

	insn[0].exec_cb(0, insn[0].exec_udata);
	for (int i = 0; i < 10; i++) {
		st->hwaddr.phys = 0x40000000 + 4096 * (uint64_t)i;
		insn[1].mem_cb(0, 0, 0x7f0000000000 + 4096 * (uint64_t)i, insn[1].mem_udata);
	}
	insn[2].exec_cb(0, insn[2].exec_udata);
	st->atexit(1, st->atexit_udata);
	free(out);
	return 0;
}
