# Guest-side benchmarks (static binaries): build/guest/tierbench.
# bench/README.md documents the CLI and the rows it prints.

# mpolrun.c and wlrun.c are programs of their own (workloads, issue 7).
BENCH_TOOL_SRCS := bench/mpolrun.c bench/wlrun.c bench/wlparse.c
BENCH_SRCS := $(filter-out $(BENCH_TOOL_SRCS),$(wildcard bench/*.c))
BENCH_OBJS := $(BENCH_SRCS:%.c=$(B)/guest/obj/%.o)
# What the tools link from tierbench rather than copy: policy names and
# syscalls, node sets, machine facts and counters, the channel writer, and
# the outcome words (guest/vocab.h).
BENCH_SHARED_OBJS := $(patsubst %,$(B)/guest/obj/bench/%.o,policy fmt sysinfo out hist phase outcome needs)
# Pure math and formatting: compiled for the host unit tests as well.
BENCH_UNIT_SRCS := bench/hist.c bench/stats.c bench/fmt.c bench/wlparse.c bench/outcome.c bench/nearest.c bench/vmscan.c \
		   bench/order.c bench/costmodel.c bench/mpolmodel.c
UNIT_EXTRA_SRCS += $(BENCH_UNIT_SRCS)

# guest.mk puts every GUEST_BINS entry into the initramfs's /bin.
GUEST_BINS += $(B)/guest/tierbench
guest: $(B)/guest/tierbench

$(B)/guest/obj/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -c -o $@ $<

$(B)/guest/tierbench: $(BENCH_OBJS)
	$(CC) $(GUEST_CFLAGS) -o $@ $^ $(GUEST_LIBS)

# mpolrun: run a command under a task memory policy.  wlrun: one workload
# under one policy, with its figures and where its pages went as ROW lines.
GUEST_BINS += $(B)/guest/mpolrun $(B)/guest/wlrun
guest: $(B)/guest/mpolrun $(B)/guest/wlrun

$(B)/guest/mpolrun: $(B)/guest/obj/bench/mpolrun.o $(BENCH_SHARED_OBJS)
	$(CC) $(GUEST_CFLAGS) -o $@ $^ $(GUEST_LIBS)

$(B)/guest/wlrun: $(B)/guest/obj/bench/wlrun.o $(B)/guest/obj/bench/wlparse.o $(BENCH_SHARED_OBJS)
	$(CC) $(GUEST_CFLAGS) -o $@ $^ $(GUEST_LIBS)

# lab.mk's unit rule expanded UNIT_EXTRA_SRCS before this file was read, so
# name the objects again as prerequisites (the recipe links $^, all of them).
$(B)/san/unit: $(BENCH_UNIT_SRCS:%.c=$(B)/san/%.o)
# tests/unit/test_stats.c and test_bench*.c include bench headers.
$(B)/san/tests/unit/test_stats.o $(B)/san/tests/unit/test_bench%.o $(B)/san/tests/unit/test_vocab.o: HOST_CFLAGS += -Ibench
# chase.c and phase.c mark phases with the plugin's markers (plugin/marker.h).
$(B)/guest/obj/bench/chase.o $(B)/guest/obj/bench/phase.o: GUEST_CFLAGS += -Iplugin

# What the host's plan reads of the benchmarks (lab/boot/benchlist.c): their
# declared needs and options and the words tierbench prints, from the binary
# itself.  The guest binaries are built with the host's own $(CC) (static),
# so the build host can run tierbench --list=machine, which reads nothing
# of the machine.
$(B)/guest/benches.list: $(B)/guest/tierbench
	$< --list=machine > $@.tmp && mv $@.tmp $@
guest: $(B)/guest/benches.list
