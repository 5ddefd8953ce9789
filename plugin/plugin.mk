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

# A stand-in for QEMU's side of the plugin API (tests/plugin/fakeqemu.c),
# one of each kind the plugin tells apart at load, and the driver that
# loads the plugin over it (tests/test_plugin_load.sh).  libm is a QEMU
# binary's, hence the plugin's: linked into the stand-in.
plugin: $(B)/plugin/test/fakeqemu-old.so $(B)/plugin/test/fakeqemu-new.so $(B)/plugin/test/loadcheck

$(B)/plugin/test/fakeqemu-old.so: tests/plugin/fakeqemu.c tests/plugin/fakeqemu.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -Itests/plugin -DFAKE_QEMU_OLD -shared -o $@ $< -Wl,--no-as-needed -lm

$(B)/plugin/test/fakeqemu-new.so: tests/plugin/fakeqemu.c tests/plugin/fakeqemu.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -Itests/plugin -shared -o $@ $< -Wl,--no-as-needed -lm

$(B)/plugin/test/loadcheck: tests/plugin/loadcheck.c tests/plugin/fakeqemu.h plugin/qemu_api.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Itests/plugin -Iplugin -o $@ $< -ldl
