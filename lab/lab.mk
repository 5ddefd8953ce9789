# Host-side C: labtool and its unit tests.
LAB_SRCS := $(filter-out lab/labtool.c,$(wildcard lab/*.c)) guest/frame.c
LAB_OBJS := $(LAB_SRCS:%.c=$(B)/host/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
# Other directories add C sources that the unit tests must also link.
UNIT_EXTRA_SRCS ?=

host: $(B)/host/labtool

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
