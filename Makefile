# tierlab: tiered-memory benchmarking lab.  `make help` lists the targets.
#
# Host tools go to build/host, guest (static) binaries to build/guest, the
# sanitizer build of the unit tests to build/san.  Kernels and initramfs
# images are cached outside the tree under $(TIERLAB_CACHE).

# A recipe that fails must not leave a half-written target that a later make
# would take as up to date.
.DELETE_ON_ERROR:
# GUEST_BINS grows in every included .mk; prerequisites read it late.
.SECONDEXPANSION:

TIERLAB_CACHE ?= /var/cache/tierlab
export TIERLAB_CACHE

CC ?= gcc
WARN := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla
CFLAGS_COMMON := -std=gnu11 -O2 -g $(WARN) -D_GNU_SOURCE -MMD -MP
HOST_CFLAGS := $(CFLAGS_COMMON) -Ilab -Ilab/lib -Ilab/model -Ilab/boot -Ilab/rundir -Ilab/report -Iguest -Iplugin
HOST_LIBS := -lyaml -lm
GUEST_CFLAGS := $(CFLAGS_COMMON) -static -Ibench -Iguest
GUEST_LIBS := -lm
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

B := build
all: host guest

include lab/lab.mk
include bench/bench.mk
include guest/guest.mk
include plugin/plugin.mk
include tests/kernel/kernel-tests.mk
include selftests/selftests.mk

.PHONY: all host guest deps deps-test test test-kernels unit report bench-lab kernel clean help

# The package list lives in lab/packages.
deps:
	@lab/deps.sh build
deps-test:
	@lab/deps.sh build test selftests

kernel:
	@kernel/build.sh >/dev/null

# Two levels (README "Tests"): `test` with the one patched kernel, for every
# change; `test-kernels` with every kernel the series is checked on (its
# prefixes, the configuration variants, the upstream and 6.1 baselines), for
# a change to kernel/.  CI runs both.
test: deps-test
	@tests/run-tests.sh

test-kernels: deps-test
	@tests/run-tests.sh --kernels

unit: $(B)/san/unit
	$(B)/san/unit

report:
	@test -n "$(RUN)" || { echo "make report: set RUN=results/<run-id>" >&2; exit 2; }
	@$(B)/host/labtool report $(if $(FITS),--fits "$(FITS)") "$(RUN)"

# A benchmark of the lab itself (not a test): prints figures with targets.
bench-lab: all initramfs
	@lab/bench-lab.sh

clean:
	rm -rf $(B)

help:
	@echo "targets: all (host+guest), initramfs, deps, deps-test, kernel, test, test-kernels, unit, report RUN=DIR [FITS=yes|no|unknown], bench-lab, selftests-mm (the kernel's mm selftests, static, in build/selftests/mm), clean"

-include $(shell find $(B) -name '*.d' 2>/dev/null)
