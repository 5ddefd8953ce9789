# Host-side C: labtool and its unit tests.
# bench/stats.c: the order-statistic medians the guest uses, for the verdicts
# over boots (lab/report/verdict.c); listed twice for the unit tests, $^ keeps one.
# bench/order.c: the seed of the latency cases' order, from the boot id (plan).
# bench/costmodel.c: the guest's cost model, for the report's model after the
# fill (lab/report/report_model.c), the same code rather than a copy.
# plugin/memtiming.c: the memory-timing plugin's report format (lab/boot/accounting.c).
# bench/needs.c: tierbench's judge of a benchmark's declared needs, for the
# plan's (lab/boot/cmd_plan.c), the same code rather than a copy.
LAB_DIRS := lab/lib lab/model lab/boot lab/rundir lab/report
LAB_SRCS := $(filter-out lab/labtool.c,$(wildcard lab/*.c $(LAB_DIRS:%=%/*.c))) guest/frame.c bench/stats.c bench/order.c \
	    bench/costmodel.c bench/needs.c plugin/memtiming.c
LAB_OBJS := $(LAB_SRCS:%.c=$(B)/host/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
# Other directories add C sources that the unit tests must also link.
UNIT_EXTRA_SRCS ?=

host: $(B)/host/labtool

$(B)/host/lab/report/verdict.o $(B)/san/lab/report/verdict.o $(B)/host/lab/report/report_run.o $(B)/san/lab/report/report_run.o \
$(B)/host/lab/boot/cmd_plan.o $(B)/san/lab/boot/cmd_plan.o $(B)/host/lab/boot/qemu.o $(B)/san/lab/boot/qemu.o \
$(B)/host/lab/boot/benchlist.o $(B)/san/lab/boot/benchlist.o \
$(B)/host/lab/report/report_model.o $(B)/san/lab/report/report_model.o \
$(B)/san/tests/unit/test_verdict.o $(B)/san/tests/unit/test_qemu.o: HOST_CFLAGS += -Ibench

$(B)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

$(B)/host/labtool: $(B)/host/lab/labtool.o $(LAB_OBJS)
	$(CC) $(HOST_CFLAGS) -o $@ $^ $(HOST_LIBS)

# The unit tests link the same sources, built with ASan and UBSan.
$(B)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Itests/unit -c -o $@ $<

$(B)/san/unit: $(LAB_SRCS:%.c=$(B)/san/%.o) $(UNIT_SRCS:%.c=$(B)/san/%.o) $(UNIT_EXTRA_SRCS:%.c=$(B)/san/%.o)
	$(CC) $(HOST_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(HOST_LIBS)

# labtool itself under the sanitizers, for the shell tests in CI.
$(B)/san/labtool: $(B)/san/lab/labtool.o $(LAB_SRCS:%.c=$(B)/san/%.o)
	$(CC) $(HOST_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(HOST_LIBS)

