// SPDX-License-Identifier: GPL-2.0
/*
 * Memory policies through raw syscalls (no libnuma): the static guest binary
 * must not depend on a library the initramfs lacks, and the constants for
 * MPOL_PREFERRED_MANY / MPOL_WEIGHTED_INTERLEAVE are defined in tb.h when
 * the libc headers are older than the kernel.
 */
#include "tb.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The words of guest/vocab.h, indexed by the enums tb.h makes of them. */
const char *const pol_names[POL_COUNT] = { VOCAB_POLICIES(VOCAB_NAME4) };
const char *const pagesize_names[PS_COUNT] = { VOCAB_PAGESIZES(VOCAB_NAME2) };
const char *const scenario_names[SC_COUNT] = { VOCAB_SCENARIOS(VOCAB_NAME2) };
const char *const profile_names[PROFILE_COUNT] = { VOCAB_PROFILES(VOCAB_NAME4) };

int pol_mode(enum pol p)
{
	static const int modes[POL_COUNT] = {
		[POL_BIND] = MPOL_BIND,
		[POL_PREFERRED] = MPOL_PREFERRED,
		[POL_PREFERRED_MANY] = MPOL_PREFERRED_MANY,
		[POL_DEFAULT] = MPOL_DEFAULT,
		[POL_INTERLEAVE] = MPOL_INTERLEAVE,
		[POL_WEIGHTED_INTERLEAVE] = MPOL_WEIGHTED_INTERLEAVE,
	};
	return modes[p];
}

/*
 * bind / preferred-many: the preferred set; preferred: its first node (the
 * kernel keeps only first_node() anyway); interleave references: every
 * memory node, which is what an untiered deployment would do; default: no
 * mask is passed to the kernel, but its "mask" for in_mask_frac is every
 * memory node (local allocation may use any).
 */
void pol_nodes(enum pol p, const struct nodeset *preferred, struct nodeset *out)
{
	switch (p) {
	case POL_BIND:
	case POL_PREFERRED_MANY:
		*out = *preferred;
		break;
	case POL_PREFERRED:
		ns_clear(out);
		ns_set(out, ns_first(preferred));
		break;
	default:
		mem_nodes(out);
	}
}

/* maxnode is the bit count plus one: the kernel's get_nodes() does --maxnode. */
long sys_mbind(void *addr, unsigned long len, int mode,
	       const struct nodeset *ns, unsigned flags)
{
	return syscall(SYS_mbind, addr, len, mode, ns ? ns->bits : NULL,
		       ns ? NODESET_MAX + 1 : 0, flags);
}

long sys_set_mempolicy(int mode, const struct nodeset *ns)
{
	return syscall(SYS_set_mempolicy, mode, ns ? ns->bits : NULL,
		       ns ? NODESET_MAX + 1 : 0);
}

long sys_get_mempolicy(int *mode, struct nodeset *ns, void *addr,
		       unsigned long flags)
{
	if (ns)
		ns_clear(ns);
	return syscall(SYS_get_mempolicy, mode, ns ? ns->bits : NULL,
		       ns ? NODESET_MAX : 0, addr, flags);
}

long sys_move_pages(unsigned long count, void **pages, int *status)
{
	return syscall(SYS_move_pages, 0, count, pages, NULL, status, 0);
}

int pol_apply(enum pol p, enum via v, const struct nodeset *preferred,
	      void *addr, size_t len)
{
	struct nodeset ns;
	int mode = pol_mode(p);
	long rc;

	pol_nodes(p, preferred, &ns);
	if (v == VIA_MBIND)
		rc = sys_mbind(addr, len, mode, p == POL_DEFAULT ? NULL : &ns, 0);
	else
		rc = sys_set_mempolicy(mode, p == POL_DEFAULT ? NULL : &ns);
	if (rc) {
		int e = errno;
		char ids[128];

		ns_format_plus(&ns, ids, sizeof(ids));
		msg("%s(mode=%d %s, nodes %s): %s",
		    v == VIA_MBIND ? "mbind" : "set_mempolicy", mode, pol_names[p],
		    ids, strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

/* Probe on a scratch mapping-free call: set and reset the task policy. */
bool kernel_knows_mode(int mode)
{
	struct nodeset ns;
	long rc;

	mem_nodes(&ns);
	rc = sys_set_mempolicy(mode, &ns);
	sys_set_mempolicy(MPOL_DEFAULT, NULL);
	return rc == 0;
}
