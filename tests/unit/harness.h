/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness for the host-side C code.  Each test is a
 * function registered with TEST(); the runner calls every test, counts
 * failed CHECKs, and prints "N passed, N failed" as its last line so CI and
 * people read the same verdict.
 */
#ifndef TIERLAB_HARNESS_H
#define TIERLAB_HARNESS_H

#include <stdio.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(int *failures);
	struct unit_test *next;
};

void unit_register(struct unit_test *t);

#define TEST(name)                                                          \
	static void test_##name(int *failures);                              \
	static struct unit_test unit_##name = { #name, test_##name, NULL };  \
	__attribute__((constructor)) static void reg_##name(void)            \
	{                                                                    \
		unit_register(&unit_##name);                                 \
	}                                                                    \
	static void test_##name(int *failures)

#define CHECK(cond)                                                         \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "  %s:%d: CHECK failed: %s\n",        \
				__FILE__, __LINE__, #cond);                  \
			(*failures)++;                                       \
		}                                                            \
	} while (0)

#define CHECK_STR(got, want)                                                \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (!g_ || strcmp(g_, w_) != 0) {                            \
			fprintf(stderr, "  %s:%d: got \"%s\", want \"%s\"\n", \
				__FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
			(*failures)++;                                       \
		}                                                            \
	} while (0)

#define CHECK_NEAR(got, want, tol)                                          \
	do {                                                                 \
		double g_ = (got), w_ = (want);                              \
		if (!(g_ - w_ <= (tol) && w_ - g_ <= (tol))) {               \
			fprintf(stderr, "  %s:%d: got %.9g, want %.9g ± %g\n", \
				__FILE__, __LINE__, g_, w_, (double)(tol));  \
			(*failures)++;                                       \
		}                                                            \
	} while (0)

#endif
