# The memory-timing plugin for QEMU's TCG (--memory-timing count):
# build/plugin/tiermem.so.  No QEMU header is needed (plugin/qemu_api.h);
# the qemu_plugin_* symbols resolve in the QEMU binary that loads it, hence
# no -z defs.  memtiming.c is also in labtool and its unit tests (lab.mk).
PLUGIN_CFLAGS := $(CFLAGS_COMMON) -fPIC -fvisibility=hidden -Iplugin
PLUGIN_SRCS := plugin/tiermem.c plugin/memtiming.c

all: plugin
plugin: $(B)/plugin/tiermem.so
.PHONY: plugin

$(B)/plugin/obj/%.o: plugin/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -c -o $@ $<

$(B)/plugin/tiermem.so: $(PLUGIN_SRCS:plugin/%.c=$(B)/plugin/obj/%.o)
	$(CC) $(PLUGIN_CFLAGS) -shared -o $@ $^

$(B)/san/tests/unit/test_plugin%.o: HOST_CFLAGS += -Iplugin
