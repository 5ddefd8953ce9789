# Guest-side init support (static binaries).
