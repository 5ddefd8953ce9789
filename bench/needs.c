// SPDX-License-Identifier: GPL-2.0
/* Judging and printing a benchmark's declared needs (needs.h). */
#include "needs.h"

#include <stdio.h>
#include <string.h>

const char *needs_unmet(const struct needs *n, const struct machine_facts *m, char *why,
			size_t len)
{
	if (m->mem_nodes < n->min_mem_nodes)
		snprintf(why, len, "needs %d memory nodes, guest has %d", n->min_mem_nodes,
			 m->mem_nodes);
	else if (n->outside_set && m->mem_nodes_outside_set < 1)
		snprintf(why, len, "needs a memory node outside the preferred set");
	else if (n->hugetlb && !m->hugetlb)
		snprintf(why, len, "needs a 2 MiB hugetlb pool, kernel has none");
	else if (n->cpuless_node && !m->cpuless_node)
		snprintf(why, len, "needs a CPU-less memory node, guest has none");
	else if (n->hmat && !m->hmat)
		snprintf(why, len, "needs HMAT figures (node*/access0/initiators or --model-hmat), "
			 "guest has none");
	else if (n->oom_kill && m->panic_on_oom != 0)
		snprintf(why, len, m->panic_on_oom < 0 ?
			 "vm.panic_on_oom unreadable: an OOM might panic the guest" :
			 "vm.panic_on_oom is set: an OOM would panic the guest");
	else
		return NULL;
	return why;
}

int needs_format(const struct needs *n, char *buf, size_t len)
{
	int used = snprintf(buf, len, "mem_nodes=%d outside_set=%d hugetlb=%d cpuless_node=%d "
			    "hmat=%d oom_kill=%d sysctls=", n->min_mem_nodes, n->outside_set,
			    n->hugetlb, n->cpuless_node, n->hmat, n->oom_kill);

	for (int i = 0; i < NEEDS_MAX_SYSCTLS && n->sysctls[i] && used >= 0; i++)
		used += snprintf(buf + ((size_t)used < len ? (size_t)used : len),
				 (size_t)used < len ? len - (size_t)used : 0, "%s%s", i ? "," : "",
				 n->sysctls[i]);
	if (used >= 0 && !n->sysctls[0])
		used += snprintf(buf + ((size_t)used < len ? (size_t)used : len),
				 (size_t)used < len ? len - (size_t)used : 0, "-");
	return used;
}

int sysctl_path(const char *name, char *buf, size_t len)
{
	int n;

	if (!strchr(name, '.') || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_.") !=
	    strlen(name) || name[0] == '.' || strstr(name, ".."))
		return -1;
	n = snprintf(buf, len, "/proc/sys/%s", name);
	if (n < 0 || (size_t)n >= len)
		return -1;
	for (char *p = buf + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

bool needs_declares(const struct needs *n, const char *name)
{
	for (int i = 0; i < NEEDS_MAX_SYSCTLS && n->sysctls[i]; i++)
		if (!strcmp(n->sysctls[i], name))
			return true;
	return false;
}
