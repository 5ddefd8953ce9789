// SPDX-License-Identifier: GPL-2.0
/*
 * labtool plan --tiering (#20 item 4): the tiers step that sets the mode
 * comes before every benchmark, with the clock; the default benchmarks
 * gain tiering; off changes nothing; a bad word is one line and exit 64.
 */
#include "harness.h"
#include "commands.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NEEDS1 " mem_nodes=1 outside_set=0 hugetlb=0 cpuless_node=0 hmat=0 oom_kill=0 sysctls=-\n"

static char *plan_of(const char *list, const char *tiering, const char *benches, int *rc)
{
	char *av[] = { "plan", "topologies/2s-dram-pmem.yaml", "--boot-id", "1", "--profile", "quick",
		       "--clock", "icount", "--benches", (char *)benches, "--bench-list", (char *)list,
		       "--tiering", (char *)tiering, NULL };
	struct sbuf out = { 0 };

	*rc = plan_text(14, av, &out);
	return out.s ? out.s : xstrdup("");
}

TEST(plan_tiering_step_and_bench)
{
	char path[] = "/tmp/tierlab-unit-benches.XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char *p, *tiers, *first_bench;

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("tierbench-list 1\n"
	      "bench name=checks timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=latency timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=fallback timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=fallback-order timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=features timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=threads timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=oom timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=model timeout=300 every_node=0 options=-" NEEDS1
	      "bench name=tiers timeout=60 every_node=1 options=--tiering" NEEDS1
	      "bench name=tiering timeout=600 every_node=1 options=--mib,--policies" NEEDS1
	      "bench name=reclaim timeout=600 every_node=0 options=-" NEEDS1, f);
	fclose(f);

	p = plan_of(path, "demotion", "default", &rc);
	CHECK(rc == 0);
	tiers = strstr(p, "step tiers 60 tierbench tiers --tiering demotion --clock icount\n");
	first_bench = strstr(p, "step checks-");
	CHECK(tiers && first_bench && tiers < first_bench);
	CHECK(strstr(p, "step tiering ") && strstr(p, "tierbench tiering --profile quick --clock icount\n"));
	/* tiering counts on no swap: before reclaim, which turns it on */
	CHECK(strstr(p, "step reclaim") && strstr(p, "step tiering ") < strstr(p, "step reclaim"));
	free(p);

	p = plan_of(path, "balancing", "checks", &rc);
	CHECK(rc == 0 && strstr(p, "tiers --tiering balancing") && !strstr(p, "step tiering "));
	free(p);

	p = plan_of(path, "off", "default", &rc);
	CHECK(rc == 0 && !strstr(p, "tiers") && !strstr(p, "tiering"));
	free(p);

	p = plan_of(path, "sometimes", "default", &rc);
	CHECK(rc == 64 && !*p);
	free(p);
	unlink(path);
}
