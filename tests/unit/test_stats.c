// SPDX-License-Identifier: GPL-2.0
/*
 * bench/hist.c, bench/stats.c, bench/fmt.c against hand-computed values.
 */
#include "harness.h"
#include "hist.h"
#include "stats.h"
#include "fmt.h"

#include <stdlib.h>

TEST(hist_bucket_boundaries)
{
	/* exact below 2 * HIST_SUB = 64 */
	CHECK(hist_index(0) == 0);
	CHECK(hist_index(63) == 63);
	CHECK(hist_bucket_lo(63) == 63 && hist_bucket_hi(63) == 63);
	/* 64..127: buckets of width 2 */
	CHECK(hist_index(64) == 64);
	CHECK(hist_index(65) == 64);
	CHECK(hist_index(66) == 65);
	CHECK(hist_index(127) == 95);
	CHECK(hist_bucket_lo(95) == 126 && hist_bucket_hi(95) == 127);
	/* 128..255: width 4 */
	CHECK(hist_index(128) == 96);
	CHECK(hist_bucket_lo(96) == 128 && hist_bucket_hi(96) == 131);
	/* 1000 = 0b1111101000: msb 9, shift 4, mantissa 62 -> 4*32+62 */
	CHECK(hist_index(1000) == 190);
	CHECK(hist_bucket_lo(190) == 992 && hist_bucket_hi(190) == 1007);
	CHECK(hist_index(UINT64_MAX) == HIST_BUCKETS - 1);
	CHECK(hist_bucket_hi(HIST_BUCKETS - 1) == UINT64_MAX);
	/* every bucket starts where the previous ended */
	for (unsigned i = 1; i < HIST_BUCKETS; i++)
		CHECK(hist_bucket_lo(i) == hist_bucket_hi(i - 1) + 1);
	/* and every value maps into the bucket that contains it */
	for (uint64_t v = 1; v < (1ull << 40); v = v * 3 + 1) {
		unsigned i = hist_index(v);

		CHECK(hist_bucket_lo(i) <= v && v <= hist_bucket_hi(i));
	}
}

TEST(hist_percentiles_exact_range)
{
	struct hist *h = malloc(sizeof(*h));

	hist_init(h);
	for (uint64_t v = 1; v <= 60; v++)	/* 1..60, all exact */
		hist_add(h, v);
	CHECK(h->count == 60);
	CHECK(h->min == 1 && h->max == 60);
	CHECK_NEAR(hist_mean(h), 30.5, 1e-9);
	/* nearest rank: ceil(q * 60) */
	CHECK(hist_quantile(h, 0.50) == 30);
	CHECK(hist_quantile(h, 0.90) == 54);
	CHECK(hist_quantile(h, 0.99) == 60);	/* ceil(59.4) = 60 */
	CHECK(hist_quantile(h, 0.999) == 60);
	CHECK(hist_quantile(h, 0.0) == 1);
	CHECK(hist_quantile(h, 1.0) == 60);
	free(h);
}

TEST(hist_percentiles_log_buckets)
{
	struct hist *h = malloc(sizeof(*h)), *g = malloc(sizeof(*g));
	char buf[128];

	hist_init(h);
	hist_init(g);
	/* 90 values of 1000, 9 of 5000, 1 of 100000 */
	for (int i = 0; i < 90; i++)
		hist_add(h, 1000);
	for (int i = 0; i < 9; i++)
		hist_add(g, 5000);
	hist_add(g, 100000);
	hist_merge(h, g);
	CHECK(h->count == 100);
	CHECK_NEAR(hist_mean(h), (90 * 1000.0 + 9 * 5000.0 + 100000.0) / 100, 1e-9);
	/* p50, p90: the bucket of 1000 starts at 992, below min: clamped to 1000 */
	CHECK(hist_quantile(h, 0.50) == 1000);
	CHECK(hist_quantile(h, 0.90) == 1000);
	/* rank 91..99 are 5000: 5000 = msb 12, shift 7, mant 39 -> lo 39 << 7 = 4992 */
	CHECK(hist_quantile(h, 0.91) == 4992);
	CHECK(hist_quantile(h, 0.99) == 4992);
	/* rank 100: 100000 = msb 16, shift 11, mant 48 -> lo 48 << 11 = 98304 */
	CHECK(hist_quantile(h, 0.999) == 98304);
	CHECK(h->max == 100000);
	CHECK(hist_format_buckets(h, buf, sizeof(buf)) == (int)strlen("992:90+4992:9+98304:1"));
	CHECK_STR(buf, "992:90+4992:9+98304:1");
	/* a short buffer truncates, the return still says what was needed */
	CHECK(hist_format_buckets(h, buf, 5) == 21);
	CHECK_STR(buf, "992:");
	free(h);
	free(g);
}

TEST(hist_empty)
{
	struct hist *h = malloc(sizeof(*h));
	char buf[8];

	hist_init(h);
	CHECK(hist_quantile(h, 0.5) == 0);
	CHECK_NEAR(hist_mean(h), 0, 0);
	CHECK(hist_format_buckets(h, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");
	free(h);
}

TEST(stats_median)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	CHECK_NEAR(stats_median(odd, 3), 3, 0);
	CHECK_NEAR(stats_median(even, 4), 2.5, 0);
	CHECK_NEAR(stats_median(one, 1), 7, 0);
	CHECK(odd[0] == 1 && odd[2] == 5);	/* sorted in place */
}

TEST(stats_binomial)
{
	CHECK_NEAR(stats_binom_half_cdf(5, 0), 1.0 / 32, 1e-12);
	CHECK_NEAR(stats_binom_half_cdf(10, 1), 11.0 / 1024, 1e-12);
	CHECK_NEAR(stats_binom_half_cdf(10, 2), 56.0 / 1024, 1e-12);
	CHECK_NEAR(stats_binom_half_cdf(4, 4), 1.0, 0);
	/* P(B(20) <= 5) = 21700 / 2^20 */
	CHECK_NEAR(stats_binom_half_cdf(20, 5), 21700.0 / 1048576, 1e-12);
}

TEST(stats_median_ci_ranks)
{
	struct median_ci ci;

	/* n <= 5: no interval reaches 95 %; [min, max] with its true coverage */
	ci = stats_median_ci_ranks(2, 0.95);
	CHECK(ci.lo_rank == 1 && ci.hi_rank == 2);
	CHECK_NEAR(ci.coverage, 0.5, 1e-12);
	ci = stats_median_ci_ranks(5, 0.95);
	CHECK(ci.lo_rank == 1 && ci.hi_rank == 5);
	CHECK_NEAR(ci.coverage, 1 - 2.0 / 32, 1e-12);
	/* n = 6: [x1, x6] at 1 - 2/64 */
	ci = stats_median_ci_ranks(6, 0.95);
	CHECK(ci.lo_rank == 1 && ci.hi_rank == 6);
	CHECK_NEAR(ci.coverage, 1 - 2.0 / 64, 1e-12);
	/* n = 9: P(B<=1) = 10/512 = 0.0195 <= 0.025 -> [x2, x8] */
	ci = stats_median_ci_ranks(9, 0.95);
	CHECK(ci.lo_rank == 2 && ci.hi_rank == 8);
	CHECK_NEAR(ci.coverage, 1 - 20.0 / 512, 1e-12);
	/* n = 10: P(B<=1) = 11/1024 ok, P(B<=2) = 56/1024 too big -> [x2, x9] */
	ci = stats_median_ci_ranks(10, 0.95);
	CHECK(ci.lo_rank == 2 && ci.hi_rank == 9);
	CHECK_NEAR(ci.coverage, 1 - 22.0 / 1024, 1e-12);
	/* n = 11: P(B<=1) = 12/2048 ok, P(B<=2) = 67/2048 = 0.0327 no -> [x2, x10] */
	ci = stats_median_ci_ranks(11, 0.95);
	CHECK(ci.lo_rank == 2 && ci.hi_rank == 10);
	/* n = 20: the textbook [x6, x15] */
	ci = stats_median_ci_ranks(20, 0.95);
	CHECK(ci.lo_rank == 6 && ci.hi_rank == 15);
	CHECK_NEAR(ci.coverage, 1 - 2 * 21700.0 / 1048576, 1e-12);
	ci = stats_median_ci_ranks(1, 0.95);
	CHECK(ci.lo_rank == 1 && ci.hi_rank == 1);
}

TEST(fmt_nodeset_parse_format)
{
	struct nodeset ns;
	char err[96], buf[64];

	CHECK(ns_parse("1+3", &ns, err, sizeof(err)) == 0);
	CHECK(ns_count(&ns) == 2 && ns_has(&ns, 1) && ns_has(&ns, 3) && !ns_has(&ns, 2));
	ns_format_plus(&ns, buf, sizeof(buf));
	CHECK_STR(buf, "1+3");
	ns_format_pbl(&ns, buf, sizeof(buf));
	CHECK_STR(buf, "1,3");
	CHECK(ns_parse("0-2,5", &ns, err, sizeof(err)) == 0);
	ns_format_pbl(&ns, buf, sizeof(buf));
	CHECK_STR(buf, "0-2,5");
	ns_format_plus(&ns, buf, sizeof(buf));
	CHECK_STR(buf, "0+1+2+5");
	CHECK(ns_first(&ns) == 0 && ns_last(&ns) == 5 && ns_next(&ns, 2) == 5);
	CHECK(ns_parse("", &ns, err, sizeof(err)) == -1);
	CHECK(ns_parse("1+", &ns, err, sizeof(err)) == -1);
	CHECK(ns_parse("a", &ns, err, sizeof(err)) == -1);
	CHECK(ns_parse("3-1", &ns, err, sizeof(err)) == -1);
	CHECK(ns_parse("1;2", &ns, err, sizeof(err)) == -1);
	CHECK(ns_parse("1024", &ns, err, sizeof(err)) == -1);
	CHECK(ns_parse("1023", &ns, err, sizeof(err)) == 0 && ns_has(&ns, 1023));
	ns_clear(&ns);
	ns_format_plus(&ns, buf, sizeof(buf));
	CHECK_STR(buf, "-");
	/* truncation is safe and reports the needed length */
	ns_parse("10+11+12", &ns, err, sizeof(err));
	CHECK(ns_format_plus(&ns, buf, 4) == 8);
	CHECK_STR(buf, "10+");
}

TEST(fmt_model_hmat_parse)
{
	static long figs[MODEL_NODES][MODEL_FIGS];
	char err[96];

	CHECK(model_hmat_parse("0=81/86/100000/57000,3=400/180/20000/8000", figs, err,
			       sizeof(err)) == 0);
	CHECK(figs[0][0] == 81 && figs[0][1] == 86 && figs[0][2] == 100000 && figs[0][3] == 57000);
	CHECK(figs[3][0] == 400 && figs[3][3] == 8000);
	CHECK(figs[1][0] == -1 && figs[2][3] == -1 && figs[63][0] == -1);
	CHECK(model_hmat_parse("63=1/2/3/4", figs, err, sizeof(err)) == 0 && figs[63][3] == 4);
	/* each malformed form is refused with a reason, naming the entry */
	CHECK(model_hmat_parse("", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("0=1/2/3", figs, err, sizeof(err)) == -1);
	CHECK(strstr(err, "0=1/2/3") != NULL);
	CHECK(model_hmat_parse("0=1/2/3/4/5", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("0=1/2/3/4,", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("0=1/2/3/4,,1=1/2/3/4", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("64=1/2/3/4", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("-1=1/2/3/4", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("0=1/-2/3/4", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("0=1/2/3/x", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("0=1/2/3/4;1=1/2/3/4", figs, err, sizeof(err)) == -1);
	CHECK(model_hmat_parse("1=1/2/3/4,1=5/6/7/8", figs, err, sizeof(err)) == -1);
	CHECK(strstr(err, "twice") != NULL);
}

TEST(fmt_values_tokens)
{
	char buf[32];

	fmt_value(3, buf, sizeof(buf));
	CHECK_STR(buf, "3");
	fmt_value(0.5, buf, sizeof(buf));
	CHECK_STR(buf, "0.5");
	fmt_value(3538.3712, buf, sizeof(buf));
	CHECK_STR(buf, "3538.37");
	fmt_value(-2, buf, sizeof(buf));
	CHECK_STR(buf, "-2");
	fmt_value(0.0 / 0.0, buf, sizeof(buf));
	CHECK_STR(buf, "nan");
	CHECK(fmt_token_ok("preferred-many"));
	CHECK(fmt_token_ok("p99_9"));
	CHECK(!fmt_token_ok("a b"));
	CHECK(!fmt_token_ok("a,b"));
	CHECK(!fmt_token_ok("a=b"));
	CHECK(!fmt_token_ok(""));
}

/* --cpu (#16): a CPU that is not there or not online is said, with the lists */
TEST(fmt_cpu_problem)
{
	struct nodeset present, online;
	char err[80], why[96], tiny[12];

	CHECK(!ns_parse("0-3", &present, err, sizeof(err)));
	CHECK(!ns_parse("0,2-3", &online, err, sizeof(err)));
	CHECK(cpu_problem(0, &present, &online, why, sizeof(why)) == NULL);
	CHECK(cpu_problem(3, &present, &online, why, sizeof(why)) == NULL);
	CHECK_STR(cpu_problem(1, &present, &online, why, sizeof(why)), "CPU 1 is offline (online: 0,2-3)");
	CHECK_STR(cpu_problem(4, &present, &online, why, sizeof(why)), "no such CPU (present: 0-3)");
	CHECK_STR(cpu_problem(-1, &present, &online, why, sizeof(why)), "no such CPU (present: 0-3)");
	CHECK_STR(cpu_problem(5000, &present, &online, why, sizeof(why)), "no such CPU (present: 0-3)");
	/* a short buffer truncates, never overflows */
	CHECK_STR(cpu_problem(9, &present, &online, tiny, sizeof(tiny)), "no such CPU");
}
