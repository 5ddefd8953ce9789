// SPDX-License-Identifier: GPL-2.0
/*
 * mpolrun: run a command under a task memory policy.
 *
 *   mpolrun --policy P [--nodes SET] [--static|--relative] [--fallback ORDER]
 *           [--home-node N] -- CMD [ARG...]
 *
 * set_mempolicy(2) sets the calling task's policy, which survives execve(2)
 * and is inherited by children, so setting it here and exec'ing CMD gives
 * CMD (fio, stress-ng, ...) the policy from its first allocation on -- the
 * policies fio's own numa_mem_policy cannot express (preferred-many, or a
 * preferred *set*).
 *
 * SET is a node list (1+3, 1,3, 1-3) or a node kind.  The guest never reads
 * the topology, so a kind is resolved from the environment:
 * TIERLAB_NODES_<KIND>=<ids>, e.g. TIERLAB_NODES_pmem=1+3 ('-' in a kind
 * becomes '_': TIERLAB_NODES_dram_remote).  wlrun exports the variable of
 * the set it runs a workload on.
 *
 * --fallback ORDER (preferred-many only) gives CMD's policy the lab series'
 * fallback order (kernel/patches/0006): nearest or tier are the mode flags
 * MPOL_F_FALLBACK_NEAREST / MPOL_F_FALLBACK_TIER, local is no flag (the
 * kernel's default).  The order is CMD's own: other tasks keep theirs.  A
 * kernel without the flags rejects them (exit 2, saying so).
 *
 * Exit: CMD's status once exec'd; 2 bad usage, policy, node set or a policy
 * the kernel rejects (EINVAL); 1 set_mempolicy failed otherwise; 127 the
 * exec failed.  Every error is one line on stderr.
 */
#include "tb.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MPOL_F_STATIC_NODES
#define MPOL_F_STATIC_NODES (1 << 15)
#define MPOL_F_RELATIVE_NODES (1 << 14)
#endif

static const char usage_text[] =
"usage: mpolrun --policy P [--nodes SET] [--static|--relative] [--fallback ORDER] -- CMD [ARG...]\n"
"  --policy P      bind, preferred, preferred-many, default, interleave,\n"
"                  weighted-interleave\n"
"  --nodes SET     node ids (1+3, 1,3, 1-3) or a kind resolved from the\n"
"                  environment variable TIERLAB_NODES_<KIND> (e.g. pmem);\n"
"                  required except for default; preferred keeps the first node\n"
"  --static        MPOL_F_STATIC_NODES: the set is not remapped when the\n"
"                  cpuset's mems change (ids need not be allowed now)\n"
"  --relative      MPOL_F_RELATIVE_NODES: ids are relative to the allowed set\n"
"  --fallback O    preferred-many only: where the overflow goes once the set is\n"
"                  full: local (default: from the CPU's node), nearest (from the\n"
"                  set's node nearest the CPU; MPOL_F_FALLBACK_NEAREST) or tier\n"
"                  (the set's memory tiers first; MPOL_F_FALLBACK_TIER)\n"
"  --home-node N   refused: see bench/README.md (set_mempolicy_home_node acts\n"
"                  on mappings only and cannot survive exec)\n"
"exit: CMD's status; 2 bad usage/policy/nodes; 1 set_mempolicy failed; 127 exec failed\n";

static int parse_policy(const char *s)
{
	for (int p = 0; p < POL_COUNT; p++)
		if (!strcmp(s, pol_names[p]))
			return p;
	return -1;
}

static bool is_kind(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
			return false;
	return true;
}

/* SET as ids, or a kind through TIERLAB_NODES_<KIND>. */
static void resolve_nodes(const char *set, struct nodeset *ns)
{
	char err[128], var[96];
	const char *ids = set;

	if (is_kind(set)) {
		if (strlen(set) > 64)
			die_usage("--nodes: kind '%.64s...' is too long", set);
		snprintf(var, sizeof(var), "TIERLAB_NODES_%s", set);
		for (char *p = var; *p; p++)
			if (*p == '-')
				*p = '_';
		ids = getenv(var);
		if (!ids || !*ids)
			die_usage("--nodes %s: %s is not set; give node ids or set it (e.g. %s=1+3)",
				  set, var, var);
	}
	if (ns_parse(ids, ns, err, sizeof(err)))
		die_usage("--nodes %s%s%s: %s", set, ids == set ? "" : "=", ids == set ? "" : ids,
			  err);
}

/* Without a flag the kernel silently drops ids it does not allow, so an id
 * that is not a memory node is a mistake worth stopping for. */
static void check_memory_nodes(const char *set, const struct nodeset *ns)
{
	struct nodeset mem;
	char have[256];

	mem_nodes(&mem);
	ns_for_each(n, ns)
		if (!ns_has(&mem, n)) {
			ns_format_plus(&mem, have, sizeof(have));
			die_usage("--nodes %s: node %d is not a memory node (memory nodes: %s)",
				  set, n, have);
		}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "home-node", required_argument, NULL, 'H' },
		{ "static", no_argument, NULL, 's' },
		{ "relative", no_argument, NULL, 'r' },
		{ "fallback", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *policy = NULL, *set = NULL, *home = NULL, *fallback = NULL;
	unsigned flags = 0, fb_flag = 0;
	struct nodeset ns;
	int p, opt, mode;
	long rc;

	msg_prog = "mpolrun";
	opterr = 0;
	/* '+': stop at CMD, so its own options are not ours */
	while ((opt = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p': policy = optarg; break;
		case 'n': set = optarg; break;
		case 'H': home = optarg; break;
		case 's': flags |= MPOL_F_STATIC_NODES; break;
		case 'r': flags |= MPOL_F_RELATIVE_NODES; break;
		case 'f': fallback = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		case ':': die_usage("%s needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt != '?')
				die_usage("unknown option '-%c'", optopt);
			die_usage("unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (!policy)
		die_usage("--policy is required");
	p = parse_policy(policy);
	if (p < 0)
		die_usage("--policy: '%s' is not bind, preferred, preferred-many, default, interleave or weighted-interleave",
			  policy);
	if (flags == (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES))
		die_usage("--static and --relative exclude each other");
	if (fallback) {
		int f = fallback_parse(fallback);

		if (f < 0)
			die_usage("--fallback: '%s' is not local, nearest or tier", fallback);
		if (p != POL_PREFERRED_MANY)
			die_usage("--fallback is an order of --policy preferred-many, not of %s",
				  policy);
		fb_flag = (unsigned)fallback_flag((enum fallback)f);
	}
	if (home) {
		/* mm/mempolicy.c: set_mempolicy_home_node() walks the VMAs of
		 * [start, start+len) and changes only their mbind() policies;
		 * the task policy has no home node and exec drops every VMA. */
		die_usage("--home-node %s: set_mempolicy_home_node(2) changes mbind() policies of existing mappings only, which exec discards; it cannot be given to CMD",
			  home);
	}
	if (optind >= argc)
		die_usage("no command given after the options");
	if (p == POL_DEFAULT) {
		if (set)
			die_usage("--policy default takes no --nodes");
		if (flags)
			die_usage("--policy default takes no --static/--relative");
	} else {
		if (!set)
			die_usage("--policy %s needs --nodes", policy);
		resolve_nodes(set, &ns);
		if (!flags)
			check_memory_nodes(set, &ns);
		if (p == POL_PREFERRED && ns_count(&ns) > 1) {
			int first = ns_first(&ns);

			msg("--policy preferred takes one node: using node %d (preferred-many takes a set)",
			    first);
			ns_clear(&ns);
			ns_set(&ns, first);
		}
	}
	mode = pol_mode((enum pol)p);
	rc = sys_set_mempolicy(mode | (int)(flags | fb_flag), p == POL_DEFAULT ? NULL : &ns);
	if (rc) {
		int e = errno;
		char ids[256] = "-";

		if (p != POL_DEFAULT)
			ns_format_plus(&ns, ids, sizeof(ids));
		fprintf(stderr, "mpolrun: set_mempolicy(%s%s%s%s, nodes %s): %s%s\n", policy,
			flags & MPOL_F_STATIC_NODES ? "|static" :
			flags & MPOL_F_RELATIVE_NODES ? "|relative" : "",
			fb_flag ? "|" : "", fb_flag ? fallback : "", ids, strerror(e),
			fb_flag && e == EINVAL ?
			" (a kernel without the lab series' MPOL_F_FALLBACK_* flags rejects --fallback nearest/tier)" : "");
		return e == EINVAL ? 2 : 1;
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "mpolrun: exec %s: %s\n", argv[optind], strerror(errno));
	return 127;
}
