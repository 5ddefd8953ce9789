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
# one of each kind the plugin tells apart at load (before 9.0, 9.0, 9.1
# on), and the driver that loads the plugin over it: built by
# tests/test_plugin_load.sh, not by `all`.  libm is a QEMU binary's, hence
# the plugin's: linked into the stand-in.
FAKEQEMU_FLAGS_old := -DFAKE_N_VCPUS -DFAKE_INSN_PTR
FAKEQEMU_FLAGS_90 := -DFAKE_INSN_PTR
FAKEQEMU_FLAGS_new :=
plugin-test: $(B)/plugin/tiermem.so $(B)/plugin/test/fakeqemu-old.so $(B)/plugin/test/fakeqemu-90.so \
	$(B)/plugin/test/fakeqemu-new.so $(B)/plugin/test/loadcheck
.PHONY: plugin-test

$(B)/plugin/test/fakeqemu-%.so: tests/plugin/fakeqemu.c tests/plugin/fakeqemu.h plugin/plugin.mk
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -Itests/plugin $(FAKEQEMU_FLAGS_$*) -shared -o $@ $< -Wl,--no-as-needed -lm

$(B)/plugin/test/loadcheck: tests/plugin/loadcheck.c tests/plugin/fakeqemu.h plugin/qemu_api.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Itests/plugin -Iplugin -o $@ $< -ldl
