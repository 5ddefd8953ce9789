// SPDX-License-Identifier: GPL-2.0
/*
 * The topology parser: parsed values and the exact QEMU arguments of every
 * shipped topology, the derived views (distances, initiators, tiers), and
 * the buffer API the fuzzer uses.  Runs from the repository root.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "harness.h"
#include "qemu.h"
#include "util.h"
#include "yamltree.h"

/* The args as "-flag value" lines, which is how every pair is emitted. */
static char *joined_args(const struct topo *t)
{
	struct topo_args a;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (topo_qemu_args(t, &a))
		return NULL;
	f = open_memstream(&buf, &len);
	if (f) {
		for (size_t i = 0; i < a.n; i++)
			fprintf(f, "%s%c", a.v[i], i % 2 ? '\n' : ' ');
		fclose(f);
	}
	topo_args_free(&a);
	return buf;
}

static int load_quiet(const char *path, struct topo *t, char **errs)
{
	size_t len = 0;
	FILE *f = open_memstream(errs, &len);
	int rc = topo_load_limit(path, 8ULL << 30, t, f);

	fclose(f);
	return rc;
}

static void check_file_args(int *failures, const char *path, const char *want)
{
	struct topo *t = calloc(1, sizeof(*t));
	char *errs = NULL, *got;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(load_quiet(path, t, &errs) == 0);
	CHECK_STR(errs, "");
	got = joined_args(t);
	CHECK_STR(got, want);
	free(got);
	free(errs);
	free(t);
}

TEST(topology_args_two_s_dram_pmem)
{
	check_file_args(failures, "topologies/2s-dram-pmem.yaml",
		/* PMEM nodes movable by default: DIMMs, node 2 with an SRAT anchor */
		"-machine pc,hmat=on,nvdimm=on\n"
		"-smp 2\n"
		"-m 1G,slots=3,maxmem=3200M\n"
		"-object memory-backend-ram,id=mem0,size=512M,prealloc=on\n"
		"-object memory-backend-ram,id=mem1,size=512M,prealloc=on\n"
		"-object memory-backend-ram,id=mem2,size=512M,prealloc=on\n"
		"-object memory-backend-ram,id=mem3,size=512M,prealloc=on\n"
		"-object memory-backend-ram,id=anchor2,size=128M,prealloc=off\n"
		"-numa node,nodeid=0,cpus=0,memdev=mem0\n"
		"-numa node,nodeid=1,cpus=1,memdev=mem1\n"
		"-numa node,nodeid=2,initiator=0\n"
		"-numa node,nodeid=3,initiator=1\n"
		/* RAM offsets 1G and 1.5G above the device-memory base, 4G */
		"-device pc-dimm,id=dimm2,memdev=mem2,node=2,addr=0x140000000\n"
		"-device nvdimm,id=anchor2,memdev=anchor2,node=2,addr=0x180000000\n"
		"-device pc-dimm,id=dimm3,memdev=mem3,node=3,addr=0x160000000\n"
		"-numa dist,src=0,dst=1,val=21\n"
		"-numa dist,src=0,dst=2,val=17\n"
		"-numa dist,src=0,dst=3,val=28\n"
		"-numa dist,src=1,dst=2,val=28\n"
		"-numa dist,src=1,dst=3,val=17\n"
		"-numa dist,src=2,dst=3,val=28\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-latency,latency=81\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-latency,latency=86\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=100000M\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=57000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-latency,latency=138\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-latency,latency=140\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=34000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=30000M\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=read-latency,latency=305\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=write-latency,latency=94\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=read-bandwidth,bandwidth=39400M\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=write-bandwidth,bandwidth=13900M\n"
		"-numa hmat-lb,initiator=0,target=3,hierarchy=memory,data-type=read-latency,latency=400\n"
		"-numa hmat-lb,initiator=0,target=3,hierarchy=memory,data-type=write-latency,latency=180\n"
		"-numa hmat-lb,initiator=0,target=3,hierarchy=memory,data-type=read-bandwidth,bandwidth=20000M\n"
		"-numa hmat-lb,initiator=0,target=3,hierarchy=memory,data-type=write-bandwidth,bandwidth=8000M\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=read-latency,latency=138\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=write-latency,latency=140\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=34000M\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=30000M\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=read-latency,latency=81\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=write-latency,latency=86\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=100000M\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=57000M\n"
		"-numa hmat-lb,initiator=1,target=2,hierarchy=memory,data-type=read-latency,latency=400\n"
		"-numa hmat-lb,initiator=1,target=2,hierarchy=memory,data-type=write-latency,latency=180\n"
		"-numa hmat-lb,initiator=1,target=2,hierarchy=memory,data-type=read-bandwidth,bandwidth=20000M\n"
		"-numa hmat-lb,initiator=1,target=2,hierarchy=memory,data-type=write-bandwidth,bandwidth=8000M\n"
		"-numa hmat-lb,initiator=1,target=3,hierarchy=memory,data-type=read-latency,latency=305\n"
		"-numa hmat-lb,initiator=1,target=3,hierarchy=memory,data-type=write-latency,latency=94\n"
		"-numa hmat-lb,initiator=1,target=3,hierarchy=memory,data-type=read-bandwidth,bandwidth=39400M\n"
		"-numa hmat-lb,initiator=1,target=3,hierarchy=memory,data-type=write-bandwidth,bandwidth=13900M\n");
}

TEST(topology_args_dram_hbm)
{
	check_file_args(failures, "topologies/dram-hbm.yaml",
		"-machine pc,hmat=on\n"
		"-smp 2\n"
		"-m 1536M\n"
		"-object memory-backend-ram,id=mem0,size=1G,prealloc=on\n"
		"-object memory-backend-ram,id=mem1,size=512M,prealloc=on\n"
		"-numa node,nodeid=0,cpus=0-1,memdev=mem0\n"
		"-numa node,nodeid=1,memdev=mem1,initiator=0\n"
		"-numa dist,src=0,dst=1,val=13\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-latency,latency=110\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-latency,latency=110\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=250000M\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=200000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-latency,latency=130\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-latency,latency=130\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=1000000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=800000M\n");
}

/*
 * Out of memory is not an invalid file: every allocation of the parser made
 * to fail in turn gives exit 70 and "out of memory", never 65, until the
 * file loads.
 */
TEST(topology_out_of_memory_is_not_invalid)
{
	struct topo *t = calloc(1, sizeof(*t));
	unsigned long k;
	int rc = -1, wrong = 0;

	CHECK(t != NULL);
	if (!t)
		return;
	for (k = 1; k < 100000 && rc; k++) {
		char *errs = NULL;

		yaml_fail_alloc_at = k;
		rc = load_quiet("topologies/2s-dram-pmem.yaml", t, &errs);
		if (rc && (rc != EXIT_SOFTWARE || !strstr(errs, ": topology: out of memory"))) {
			if (!wrong++)
				fprintf(stderr, "  allocation %lu failed: exit %d, %s", k, rc, errs);
		}
		free(errs);
	}
	yaml_fail_alloc_at = 0;
	CHECK(wrong == 0);
	CHECK(rc == 0);
	CHECK(k > 10);		/* the parser allocated, and each failure was seen */
	free(t);
}

TEST(topology_args_dram_only_2s)
{
	check_file_args(failures, "topologies/dram-only-2s.yaml",
		"-machine pc,hmat=on\n"
		"-smp 2\n"
		"-m 2G\n"
		"-object memory-backend-ram,id=mem0,size=1G,prealloc=on\n"
		"-object memory-backend-ram,id=mem1,size=1G,prealloc=on\n"
		"-numa node,nodeid=0,cpus=0,memdev=mem0\n"
		"-numa node,nodeid=1,cpus=1,memdev=mem1\n"
		"-numa dist,src=0,dst=1,val=21\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-latency,latency=81\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-latency,latency=86\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=100000M\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=57000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-latency,latency=138\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-latency,latency=140\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=34000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=30000M\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=read-latency,latency=138\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=write-latency,latency=140\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=34000M\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=30000M\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=read-latency,latency=81\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=write-latency,latency=86\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=100000M\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=57000M\n");
}

TEST(topology_args_dram_pmem)
{
	check_file_args(failures, "topologies/dram-pmem.yaml",
		/* node 1 movable (PMEM): the last node, no anchor */
		"-machine pc,hmat=on\n"
		"-smp 2\n"
		"-m 1G,slots=1,maxmem=3G\n"
		"-object memory-backend-ram,id=mem0,size=1G,prealloc=on\n"
		"-object memory-backend-ram,id=mem1,size=1G,prealloc=on\n"
		"-numa node,nodeid=0,cpus=0-1,memdev=mem0\n"
		"-numa node,nodeid=1,initiator=0\n"
		"-device pc-dimm,id=dimm1,memdev=mem1,node=1,addr=0x140000000\n"
		"-numa dist,src=0,dst=1,val=17\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-latency,latency=81\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-latency,latency=86\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=100000M\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=57000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-latency,latency=305\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-latency,latency=94\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=39400M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=13900M\n");
}

TEST(topology_args_memside_cache)
{
	check_file_args(failures, "topologies/memside-cache.yaml",
		"-machine pc,hmat=on\n"
		"-smp 2\n"
		"-m 2G\n"
		"-object memory-backend-ram,id=mem0,size=1G,prealloc=on\n"
		"-object memory-backend-ram,id=mem1,size=1G,prealloc=on\n"
		"-numa node,nodeid=0,cpus=0,memdev=mem0\n"
		"-numa node,nodeid=1,cpus=1,memdev=mem1\n"
		"-numa dist,src=0,dst=1,val=21\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-latency,latency=305\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-latency,latency=94\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=39400M\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=13900M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-latency,latency=400\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-latency,latency=180\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=20000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=8000M\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=read-latency,latency=400\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=write-latency,latency=180\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=20000M\n"
		"-numa hmat-lb,initiator=1,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=8000M\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=read-latency,latency=305\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=write-latency,latency=94\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=39400M\n"
		"-numa hmat-lb,initiator=1,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=13900M\n"
		"-numa hmat-cache,node-id=0,size=256M,level=1,associativity=direct,policy=write-back,line=64\n"
		"-numa hmat-cache,node-id=1,size=256M,level=1,associativity=direct,policy=write-back,line=64\n");
}

TEST(topology_args_three_tier)
{
	check_file_args(failures, "topologies/three-tier.yaml",
		/* HBM (flat mode) boot memory, CXL movable */
		"-machine pc,hmat=on\n"
		"-smp 2\n"
		"-m 1536M,slots=1,maxmem=3584M\n"
		"-object memory-backend-ram,id=mem0,size=1G,prealloc=on\n"
		"-object memory-backend-ram,id=mem1,size=512M,prealloc=on\n"
		"-object memory-backend-ram,id=mem2,size=512M,prealloc=on\n"
		"-numa node,nodeid=0,cpus=0-1,memdev=mem0\n"
		"-numa node,nodeid=1,memdev=mem1,initiator=0\n"
		"-numa node,nodeid=2,initiator=0\n"
		"-device pc-dimm,id=dimm2,memdev=mem2,node=2,addr=0x160000000\n"
		"-numa dist,src=0,dst=1,val=13\n"
		"-numa dist,src=0,dst=2,val=20\n"
		"-numa dist,src=1,dst=2,val=23\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-latency,latency=110\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-latency,latency=110\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=read-bandwidth,bandwidth=250000M\n"
		"-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=write-bandwidth,bandwidth=200000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-latency,latency=130\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-latency,latency=130\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=read-bandwidth,bandwidth=1000000M\n"
		"-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=write-bandwidth,bandwidth=800000M\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=read-latency,latency=210\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=write-latency,latency=220\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=read-bandwidth,bandwidth=24000M\n"
		"-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=write-bandwidth,bandwidth=20000M\n");
}

/* Parsed values of the shipped files, beyond what the args show. */
TEST(topology_values)
{
	struct topo *t = calloc(1, sizeof(*t));
	char *errs = NULL;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(load_quiet("topologies/dram-pmem.yaml", t, &errs) == 0);
	CHECK_STR(t->name, "dram-pmem");
	CHECK(t->ncpus == 2 && t->nnodes == 2);
	CHECK(t->node[0].kind == TOPO_KIND_dram && t->node[1].kind == TOPO_KIND_pmem);
	CHECK(t->node[0].cpus == 3 && t->node[1].cpus == 0);
	CHECK(t->node[0].mem_bytes == 1ULL << 30 && t->node[1].mem_bytes == 1ULL << 30);
	CHECK(t->node[1].initiator == 0);
	CHECK(t->distance[0][1] == 17 && t->distance[1][0] == 17);
	CHECK(t->hmat[0][1].read_latency_ns == 305 && t->hmat[0][1].write_latency_ns == 94);
	CHECK(t->hmat[0][1].read_bandwidth_mbps == 39400);
	CHECK(t->hmat[0][1].write_bandwidth_mbps == 13900);
	CHECK(t->node[0].hugetlb_pages == 32 && t->node[1].hugetlb_pages == 32);
	CHECK(topo_expected_tier(t, 0) == 4);
	CHECK(topo_expected_tier(t, 1) == 31);
	free(errs);
	errs = NULL;

	/* derived distances and the default initiator */
	CHECK(load_quiet("topologies/three-tier.yaml", t, &errs) == 0);
	CHECK(t->node[1].initiator == 0 && t->node[2].initiator == 0);
	CHECK(t->distance[0][1] == 13 && t->distance[0][2] == 20);
	CHECK(t->distance[1][2] == 23 && t->distance[2][1] == 23);
	CHECK(topo_expected_tier(t, 1) < topo_expected_tier(t, 0));
	CHECK(topo_expected_tier(t, 2) > topo_expected_tier(t, 0));
	free(errs);
	errs = NULL;

	CHECK(load_quiet("topologies/memside-cache.yaml", t, &errs) == 0);
	/* pairs: the local distances are implied */
	CHECK(t->distance[0][0] == 10 && t->distance[1][1] == 10);
	CHECK(t->distance[0][1] == 21 && t->distance[1][0] == 21);
	CHECK(t->node[0].ncache == 1 && t->node[0].cache[0].size == 256ULL << 20);
	CHECK(t->node[0].cache[0].assoc == TOPO_ASSOC_direct);
	CHECK(t->node[0].cache[0].policy == TOPO_POLICY_write_back);
	CHECK(t->node[0].cache[0].line == 64);
	CHECK(topo_expected_tier(t, 0) == 4 && topo_expected_tier(t, 1) == 4);
	free(errs);
	free(t);
}

/* The commented example of topologies/README.md must stay valid. */
TEST(topology_readme_example)
{
	FILE *f = fopen("topologies/README.md", "r");
	char *line = NULL, *doc = NULL, *errs = NULL;
	size_t cap = 0, dlen = 0, elen = 0;
	FILE *d = open_memstream(&doc, &dlen), *e;
	struct topo *t = calloc(1, sizeof(*t));
	bool in = false;

	CHECK(f != NULL && d != NULL && t != NULL);
	if (!f || !d || !t)
		return;
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, "```", 3)) {
			if (in)
				break;
			in = !strncmp(line, "```yaml", 7);
			continue;
		}
		if (in)
			fputs(line, d);
	}
	fclose(f);
	fclose(d);
	e = open_memstream(&errs, &elen);
	CHECK(topo_load_buffer("README.md", doc, dlen, 0, t, e) == 0);
	fclose(e);
	CHECK_STR(errs, "");
	CHECK(t->nnodes == 2 && t->node[1].ncache == 1);
	free(line);
	free(doc);
	free(errs);
	free(t);
}

static int load_text(const char *text, struct topo *t, char **errs)
{
	size_t len = 0;
	FILE *f = open_memstream(errs, &len);
	int rc = topo_load_buffer("t.yaml", text, strlen(text), 8ULL << 30, t, f);

	fclose(f);
	return rc;
}

TEST(topology_buffer_errors)
{
	struct topo *t = calloc(1, sizeof(*t));
	char *errs = NULL;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(load_text("", t, &errs) == EXIT_INVALID);
	CHECK_STR(errs, "t.yaml:1:1: topology: file is empty\n");
	free(errs);
	CHECK(load_text("name: x\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 256M, cpus: 0}\n",
			t, &errs) == 0);
	CHECK_STR(errs, "");
	CHECK(t->distance[0][0] == 10 && !t->has_hmat);
	CHECK(topo_expected_tier(t, 0) == 4);
	free(errs);
	/* every error is reported, each on its own line */
	CHECK(load_text("name: x\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 1X, cpus: 0, colour: red}\n",
			t, &errs) == EXIT_INVALID);
	CHECK_STR(errs, "t.yaml:4:46: nodes[0].colour: unknown key 'colour'\n"
		  "t.yaml:4:33: nodes[0].memory: must be a size such as 512M or 1G, got '1X'\n");
	free(errs);
	/* a memory-less CPU node */
	CHECK(load_text("name: x\ncpus: 2\nnodes:\n  - {id: 0, kind: dram, memory: 256M, cpus: 0}\n"
			"  - {id: 1, cpus: 1}\n", t, &errs) == 0);
	CHECK_STR(errs, "");
	CHECK(t->node[1].mem_bytes == 0 && topo_expected_tier(t, 1) == -1);
	free(errs);
	/* NUL bytes and control characters never reach a message raw */
	CHECK(load_text("name: \"a\\x01b\"\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 256M, cpus: 0}\n",
			t, &errs) == EXIT_INVALID);
	CHECK(errs && strstr(errs, "got 'a\\x01b'") != NULL);
	free(errs);
	free(t);
}

TEST(topology_limit)
{
	struct topo *t = calloc(1, sizeof(*t));
	const char *text = "name: x\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 2G, cpus: 0}\n";
	size_t len = 0;
	char *errs = NULL;
	FILE *f;

	CHECK(t != NULL);
	if (!t)
		return;
	f = open_memstream(&errs, &len);
	CHECK(topo_load_buffer("t.yaml", text, strlen(text), 1ULL << 30, t, f) == EXIT_INVALID);
	fclose(f);
	CHECK_STR(errs, "t.yaml:4:3: nodes: total guest memory 2G exceeds the host limit 1G "
		  "(TIERLAB_MAX_GUEST_MEM)\n");
	free(errs);
	free(t);
}

TEST(topology_sizes_and_cpus)
{
	uint64_t v = 0;
	char buf[64];

	CHECK(topo_parse_size("512M", &v) == 0 && v == 512ULL << 20);
	CHECK(topo_parse_size("1GiB", &v) == 0 && v == 1ULL << 30);
	CHECK(topo_parse_size("1GB", &v) == 0 && v == 1ULL << 30);
	CHECK(topo_parse_size("4096", &v) == 0 && v == 4096);
	CHECK(topo_parse_size("1.5G", &v) == -1);
	CHECK(topo_parse_size("-1G", &v) == -1);
	CHECK(topo_parse_size("99999999999999999999", &v) == -1);
	CHECK(topo_parse_size("20000000000T", &v) == -1);
	topo_format_size(1536ULL << 20, buf, sizeof(buf));
	CHECK_STR(buf, "1536M");
	topo_format_size(2ULL << 30, buf, sizeof(buf));
	CHECK_STR(buf, "2G");
	topo_format_cpus(0x17, buf, sizeof(buf));
	CHECK_STR(buf, "0-2+4");
	topo_format_cpus(0, buf, sizeof(buf));
	CHECK_STR(buf, "-");
}

/*
 * #18 item 4: a memory-side cache's figures reach the cost model through the
 * plan, from CPU 0's node only (the model's figures are seen from there).
 */
static char *model_args(const char *path_or_text, bool is_text)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct sbuf sb = { 0 };
	char *errs = NULL;
	int rc;

	if (!t)
		return NULL;
	rc = is_text ? load_text(path_or_text, t, &errs) : load_quiet(path_or_text, t, &errs);
	free(errs);
	sb_puts(&sb, "");
	if (rc == 0)
		plan_model_args(t, &sb);
	free(t);
	return sb.s;
}

TEST(topology_cache_figures_reach_the_model)
{
	/* two sockets, a cache on each: node 0's is CPU 0's, node 1's the other socket's */
	static const char two[] =
		"name: x\ncpus: 2\nnodes:\n"
		"  - {id: 0, kind: pmem, memory: 1G, cpus: 0, read_latency_ns: 305, write_latency_ns: 94,"
		" read_bandwidth: 39.4GB/s, write_bandwidth: 13.9GB/s,"
		" cache: [{level: 1, size: 256M, read_latency_ns: 81, write_latency_ns: 86,"
		" read_bandwidth: 100GB/s, write_bandwidth: 57GB/s}]}\n"
		"  - {id: 1, kind: pmem, memory: 1G, cpus: 1, read_latency_ns: 305, write_latency_ns: 94,"
		" read_bandwidth: 39.4GB/s, write_bandwidth: 13.9GB/s,"
		" cache: [{level: 1, size: 256M, read_latency_ns: 90, write_latency_ns: 90,"
		" read_bandwidth: 90GB/s, write_bandwidth: 50GB/s}]}\n"
		"hmat:\n  - {initiator: 0, target: 1, read_latency_ns: 400, write_latency_ns: 180,"
		" read_bandwidth: 20GB/s, write_bandwidth: 8GB/s}\n";
	struct topo *t = calloc(1, sizeof(*t));
	char *errs = NULL, *s;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(load_quiet("topologies/memside-cache.yaml", t, &errs) == 0);
	CHECK(t->node[0].cache[0].perf.set && t->node[0].cache[0].perf.read_latency_ns == 81);
	CHECK(t->node[1].cache[0].perf.read_bandwidth_mbps == 100000);
	free(errs);
	free(t);
	s = model_args("topologies/memside-cache.yaml", false);
	CHECK_STR(s, " --model-hmat 0=305/94/39400/13900,1=400/180/20000/8000"
		     " --model-cache-hmat 0=81/86/100000/57000");
	free(s);
	/* contrary data: node 1's cache, seen from node 1, is not passed as seen from CPU 0 */
	s = model_args(two, true);
	CHECK_STR(s, " --model-hmat 0=305/94/39400/13900,1=400/180/20000/8000"
		     " --model-cache-hmat 0=81/86/100000/57000");
	free(s);
	/* a cache without figures: none passed */
	s = model_args("topologies/dram-pmem.yaml", false);
	CHECK(s && !strstr(s, "--model-cache-hmat"));
	free(s);
}

/*
 * zone: what each kind does on a real machine unless the file says
 * (CPU-less pmem and cxl movable, dram, hbm and nodes with CPUs boot
 * memory), per shipped file; a bad value is one line naming file, line and
 * field, and leaves nothing of the machine behind.
 */
TEST(topology_zone_defaults_and_errors)
{
	static const struct {
		const char *file;
		const char *zones;	/* per node: n normal, m movable, - no memory */
	} shipped[] = {
		{ "topologies/dram-pmem.yaml", "nm" },
		{ "topologies/2s-dram-pmem.yaml", "nnmm" },
		{ "topologies/2s2c-dram-pmem.yaml", "nnmm" },
		{ "topologies/dram-hbm.yaml", "nn" },
		{ "topologies/three-tier.yaml", "nnm" },
		{ "topologies/dram-only-2s.yaml", "nn" },
		{ "topologies/memside-cache.yaml", "nn" },	/* PMEM with CPUs: Memory Mode */
	};
	struct topo *t = calloc(1, sizeof(*t));
	char *errs = NULL;

	CHECK(t != NULL);
	if (!t)
		return;
	for (size_t k = 0; k < sizeof(shipped) / sizeof(shipped[0]); k++) {
		char got[TOPO_MAX_NODES + 1] = "";

		CHECK(load_quiet(shipped[k].file, t, &errs) == 0);
		CHECK_STR(errs, "");
		free(errs);
		errs = NULL;
		for (int i = 0; i < t->nnodes; i++)
			got[i] = !t->node[i].mem_bytes ? '-' :
				 t->node[i].zone == TOPO_ZONE_movable ? 'm' : 'n';
		CHECK_STR(got, shipped[k].zones);
	}
	/* the file decides over the kind: PMEM as boot memory, HBM and DRAM movable */
	CHECK(load_text("name: x\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 256M, cpus: 0}\n"
			"  - {id: 1, kind: pmem, memory: 256M, zone: normal}\n"
			"  - {id: 2, kind: hbm, memory: 256M, zone: movable}\n"
			"  - {id: 3, kind: dram, memory: 256M}\n"
			"  - {id: 4, kind: cxl, memory: 256M}\n", t, &errs) == 0);
	CHECK_STR(errs, "");
	CHECK(t->node[1].zone == TOPO_ZONE_normal && t->node[2].zone == TOPO_ZONE_movable &&
	      t->node[3].zone == TOPO_ZONE_normal && t->node[4].zone == TOPO_ZONE_movable);
	CHECK(topo_boot_mem(t) == 768ULL << 20 && topo_total_mem(t) == 1280ULL << 20);
	/* RAM offsets: boot nodes from 0, then the movable ones, each in node order */
	CHECK(topo_ram_offset(t, 3) == 512ULL << 20 && topo_ram_offset(t, 2) == 768ULL << 20 &&
	      topo_ram_offset(t, 4) == 1024ULL << 20);
	/* node 2 is not the last node: it needs an SRAT anchor; node 4 is */
	CHECK(topo_anchor_index(t, 2) == 0 && topo_anchor_index(t, 4) == -1 && topo_nanchors(t) == 1);
	free(errs);
	errs = NULL;
	/* a bad value: one line, file:line:column: field, and an empty machine */
	CHECK(load_text("name: x\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 256M, cpus: 0}\n"
			"  - {id: 1, kind: pmem, memory: 256M, zone: Movable}\n", t, &errs) == EXIT_INVALID);
	CHECK_STR(errs, "t.yaml:5:45: nodes[1].zone: unknown value 'Movable' (did you mean 'movable'?)\n");
	CHECK(t->nnodes == 0 && t->node[1].mem_bytes == 0 && t->name[0] == 0);
	free(errs);
	errs = NULL;
	CHECK(load_text("name: x\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 256M, cpus: 0, zone: movable}\n",
			t, &errs) == EXIT_INVALID);
	CHECK_STR(errs, "t.yaml:4:54: nodes[0].zone: movable needs a CPU-less node (a node with CPUs is "
		  "boot memory; movable memory is hot-added, as dax/kmem adds it)\n");
	free(errs);
	free(t);
}
