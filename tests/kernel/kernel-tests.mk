# In-guest tests of the kernel series (kernel/series): build/guest/mpol-kselftest,
# a static kselftest-style program whose TAP lines carry the channel's "TAP "
# prefix.  guest.mk puts every GUEST_BINS entry into the initramfs's /bin, so
# the lab can run it with `--exec mpol-kselftest`.
GUEST_BINS += $(B)/guest/mpol-kselftest
guest: $(B)/guest/mpol-kselftest

$(B)/guest/mpol-kselftest: tests/kernel/mpol-kselftest.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(GUEST_LIBS)
