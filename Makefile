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
HOST_CFLAGS := $(CFLAGS_COMMON) -Ilab -Iguest
HOST_LIBS := -lyaml -lm
GUEST_CFLAGS := $(CFLAGS_COMMON) -static -Ibench -Iguest
GUEST_LIBS := -lm
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

B := build
all: host guest

# Every Debian package the lab needs, in one place.  deps-build: to build and
# run; deps-test: extra for `make test`.
DEPS_BUILD := linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev \
	cpio xz-utils gzip kmod qemu-system-x86 busybox-static libyaml-dev \
	fio stress-ng numactl gnuplot-nox git
DEPS_TEST := clang libclang-rt-14-dev chromium
DEPS_OPTIONAL := linux-source-6.1

include lab/lab.mk
include bench/bench.mk
include guest/guest.mk

.PHONY: all host guest deps deps-test test unit report bench-lab kernel clean help print-deps

print-deps:
	@echo $(DEPS_BUILD)
print-deps-test:
	@echo $(DEPS_TEST)

deps:
	@lab/deps.sh $(DEPS_BUILD)
deps-test: deps
	@lab/deps.sh $(DEPS_TEST)

kernel:
	@kernel/build.sh >/dev/null

test: deps-test
	@tests/run-tests.sh

unit: $(B)/san/unit
	$(B)/san/unit

report:
	@test -n "$(RUN)" || { echo "make report: set RUN=results/<run-id>" >&2; exit 2; }
	@$(B)/host/labtool report "$(RUN)"

clean:
	rm -rf $(B)

help:
	@echo "targets: all (host+guest), deps, kernel, test, unit, report RUN=DIR, bench-lab, clean"

-include $(shell find $(B) -name '*.d' 2>/dev/null)
