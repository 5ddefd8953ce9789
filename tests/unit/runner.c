// SPDX-License-Identifier: GPL-2.0
/* Runs every registered unit test; optional argv[1] filters by substring. */
#include "harness.h"

static struct unit_test *tests;

void unit_register(struct unit_test *t)
{
	t->next = tests;
	tests = t;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (struct unit_test *t = tests; t; t = t->next) {
		int failures = 0;

		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		t->fn(&failures);
		printf("%s %s\n", failures ? "FAIL" : "ok  ", t->name);
		if (failures)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
