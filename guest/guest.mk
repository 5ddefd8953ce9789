# Guest-side init support (static binaries).  Everything in build/guest/ goes
# into the initramfs's /bin.
GUEST_FRAME := guest/frame.c

$(B)/guest/labrun: guest/labrun.c $(GUEST_FRAME) guest/frame.h
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ guest/labrun.c $(GUEST_FRAME) $(GUEST_LIBS)

guest: $(B)/guest/labrun
