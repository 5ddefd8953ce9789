// SPDX-License-Identifier: GPL-2.0
/*
 * labtool plan TOPOLOGY.yaml --boot-id ID [--profile quick|default|full]
 *              [--benches LIST|default|none] [--workloads LIST|none]
 *              [--step-timeout S]
 *
 * Writes one boot's guest plan (README.md, "Guest plan") on stdout.  This is
 * where the topology's words become node ids: every benchmark runs once per
 * "target set" -- the nodes of each slower or faster kind (pmem, cxl, hbm),
 * or the remote DRAM nodes of a DRAM-only machine -- so the guest never
 * needs to read YAML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "textfile.h"
#include "topology.h"

/* Benchmarks run when --benches is "default", in this order. */
static const char *const default_benches[] = { "checks", "latency", "fallback", "oom", "model" };

struct target {
	char label[32];
	char ids[64]; /* "1+3" */
};

static int profile_timeout(const char *profile)
{
	return !strcmp(profile, "quick") ? 300 : !strcmp(profile, "full") ? 7200 : 1200;
}

static void add_id(char *ids, size_t size, int id)
{
	size_t len = strlen(ids);

	snprintf(ids + len, size - len, "%s%d", len ? "+" : "", id);
}

/* The node sets the benchmarks prefer, by kind.  Returns how many. */
static int plan_targets(const struct topo *t, struct target *out, int max)
{
	int n = 0;

	for (int k = 0; k < TOPO_KIND_NR && n < max; k++) {
		if (k == TOPO_KIND_dram)
			continue;
		out[n].ids[0] = '\0';
		for (int i = 0; i < t->nnodes; i++)
			if ((int)t->node[i].kind == k && t->node[i].mem_bytes)
				add_id(out[n].ids, sizeof(out[n].ids), i);
		if (out[n].ids[0]) {
			snprintf(out[n].label, sizeof(out[n].label), "%s", topo_kind_names[k]);
			n++;
		}
	}
	if (n == 0 && max > 0) {
		/* DRAM only: prefer the DRAM away from CPU 0, or node 0 if alone. */
		out[0].ids[0] = '\0';
		for (int i = 0; i < t->nnodes; i++)
			if (t->node[i].mem_bytes && !(t->node[i].cpus & 1))
				add_id(out[0].ids, sizeof(out[0].ids), i);
		if (out[0].ids[0]) {
			snprintf(out[0].label, sizeof(out[0].label), "dram-remote");
		} else {
			snprintf(out[0].ids, sizeof(out[0].ids), "0");
			snprintf(out[0].label, sizeof(out[0].label), "dram");
		}
		n = 1;
	}
	return n;
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && *s != '-' && *s != '_')
			return 0;
	return 1;
}

int cmd_plan(int argc, char **argv)
{
	const char *path = NULL, *boot = NULL, *profile = "default";
	const char *benches = "default", *workloads = "none", *step_timeout = NULL;
	struct topo *t;
	struct target targets[TOPO_KIND_NR];
	int ntargets, rc, timeout;

	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--boot-id") ? &boot :
				   !strcmp(argv[i], "--profile") ? &profile :
				   !strcmp(argv[i], "--benches") ? &benches :
				   !strcmp(argv[i], "--workloads") ? &workloads :
				   !strcmp(argv[i], "--step-timeout") ? &step_timeout : NULL;

		if (opt && i + 1 < argc) {
			*opt = argv[++i];
		} else if (argv[i][0] != '-' && !path) {
			path = argv[i];
		} else {
			fprintf(stderr, "labtool plan: unexpected argument '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!path || !boot) {
		fprintf(stderr, "usage: labtool plan TOPOLOGY.yaml --boot-id ID [--profile P] [--benches LIST] [--workloads LIST]\n");
		return EXIT_USAGE;
	}
	if (!valid_name(boot) || (strcmp(profile, "quick") && strcmp(profile, "default") &&
				  strcmp(profile, "full"))) {
		fprintf(stderr, "labtool plan: bad --boot-id or --profile\n");
		return EXIT_USAGE;
	}
	if (strcmp(workloads, "none")) {
		fprintf(stderr, "labtool plan: --workloads: no workloads are available yet (use 'none')\n");
		return EXIT_USAGE;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return EXIT_SOFTWARE;
	rc = topo_load(path, t, stderr);
	if (rc) {
		free(t);
		return rc;
	}
	ntargets = plan_targets(t, targets, TOPO_KIND_NR);
	timeout = step_timeout ? atoi(step_timeout) : profile_timeout(profile);
	if (timeout <= 0) {
		fprintf(stderr, "labtool plan: --step-timeout: '%s' is not a positive number of seconds\n",
			step_timeout);
		free(t);
		return EXIT_USAGE;
	}

	struct sbuf plan = { 0 };

	sb_printf(&plan, "boot %s\n", boot);
	sb_printf(&plan, "step topology 60 topoprobe\n");
	for (int i = 0; i < t->nnodes; i++)
		if (t->node[i].hugetlb_pages)
			sb_printf(&plan, "step hugetlb-node%d 60 sh -c echo%%20%u%%20>/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages\n",
				  i, t->node[i].hugetlb_pages, i);

	if (strcmp(benches, "none")) {
		char *list = strdup(!strcmp(benches, "default") ? "" : benches), *save = NULL;
		const char *names[32];
		int nnames = 0;

		if (!list) {
			free(t);
			return EXIT_SOFTWARE;
		}
		if (!strcmp(benches, "default")) {
			for (size_t k = 0; k < sizeof(default_benches) / sizeof(*default_benches); k++)
				names[nnames++] = default_benches[k];
		} else {
			for (char *b = strtok_r(list, ",", &save); b && nnames < 32;
			     b = strtok_r(NULL, ",", &save)) {
				if (!valid_name(b)) {
					fprintf(stderr, "labtool plan: --benches: '%s' is not a benchmark name\n", b);
					free(list);
					free(plan.s);
					free(t);
					return EXIT_USAGE;
				}
				names[nnames++] = b;
			}
		}
		for (int k = 0; k < nnames; k++)
			for (int g = 0; g < ntargets; g++)
				sb_printf(&plan, "step %s-%s %d tierbench %s --profile %s --preferred %s --label %s\n",
					  names[k], targets[g].label, timeout, names[k], profile,
					  targets[g].ids, targets[g].label);
		free(list);
	}
	fputs(plan.s, stdout);
	free(plan.s);
	free(t);
	return 0;
}
