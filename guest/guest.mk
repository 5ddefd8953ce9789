# Guest-side static binaries.  Each .mk adds its binaries to GUEST_BINS;
# every one of them goes into the initramfs's /bin.
GUEST_FRAME := guest/frame.c
GUEST_CHILD := guest/child.c guest/child.h
GUEST_BINS += $(B)/guest/labrun

$(B)/guest/labrun: guest/labrun.c $(GUEST_FRAME) guest/frame.h $(GUEST_CHILD)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ guest/labrun.c $(GUEST_FRAME) guest/child.c $(GUEST_LIBS)

# topoprobe prints the guest's view of its NUMA machine (TOPO lines), which
# labtool check-guest compares with the topology file; --online-movable
# onlines a movable node's hot-added memory (topologies/README.md, Zones).
GUEST_BINS += $(B)/guest/topoprobe
$(B)/guest/topoprobe: guest/topoprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ guest/topoprobe.c $(GUEST_LIBS)

# suiterun runs an external suite's test programs, each with a timeout, one
# line per test (README "Running an external test suite").
GUEST_BINS += $(B)/guest/suiterun
$(B)/guest/suiterun: guest/suiterun.c $(GUEST_CHILD)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ guest/suiterun.c guest/child.c $(GUEST_LIBS)

# Programs from Debian that go into the initramfs with the shared libraries
# they resolve to.
GUEST_PROGRAMS := fio stress-ng numactl numastat

# The base initramfs.  Per-boot files (the plan, --add files) go into a
# second cpio that run-lab.sh appends to a copy of it.
# workloads/ goes into /lab/workloads, where wlrun looks for its jobs.
GUEST_WORKLOADS := $(wildcard workloads/*.fio workloads/*.job)
$(B)/initramfs.cpio: $$(GUEST_BINS) guest/init guest/mkinitramfs.sh $(GUEST_WORKLOADS)
	guest/mkinitramfs.sh $@ $(B)/guest $(GUEST_PROGRAMS)

guest: $$(GUEST_BINS)
initramfs: $(B)/initramfs.cpio
.PHONY: initramfs
