# Guest-side benchmarks (static binaries); owned by the microbenchmarks work.
guest:
