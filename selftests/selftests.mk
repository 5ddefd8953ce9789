# The kernel's own tools/testing/selftests/mm, built statically for the guest
# from the lab's patched 6.12 tree (`make selftests-mm`; README "Running an
# external test suite").  Nothing is written into the kernel tree:
# selftests/tree.sh copies the sources and makes the UAPI headers into
# $(ST_SRC), the programs go to $(ST_OUT) with the list that suiterun runs
# in the guest (selftests/mm.list; why each test is in or out is said there).
# KSRC=/path/to/linux builds from another tree instead.
ST_SRC := $(B)/selftests/src
ST_OUT := $(B)/selftests/mm
ST_MM := $(ST_SRC)/tools/testing/selftests/mm
# The tests the lab builds (see selftests/mm.list for those it runs).
ST_TESTS := cow compaction_test gup_longterm gup_test hugepage-mmap hugepage-mremap \
	hugepage-shm hugetlb-madvise hugetlb-read-hwpoison hugetlb-soft-offline \
	hugetlb_dio hugetlb_fault_after_madv hugetlb_madv_vs_map \
	ksm_functional_tests ksm_tests madv_populate map_fixed_noreplace map_hugetlb \
	map_populate mdwe_test memfd_secret migration mkdirty mlock-random-test \
	mlock2-tests mrelease_test mremap_dontunmap mremap_test mseal_test on-fault-limit \
	pagemap_ioctl seal_elf soft-dirty split_huge_page_test thuge-gen \
	transhuge-stress uffd-stress uffd-unit-tests droppable
# As the kernel's Makefile builds them (CFLAGS, KHDR_INCLUDES, TOOLS_INCLUDES,
# the per-test libraries), plus -static; upstream code, so its warnings are
# not errors here.  local_config.h says liburing is there (lab/packages).
# __FILE__ is the bare file name, as in the kernel's build (gup_longterm
# makes its "local tmpfile" at __FILE__"_tmpfile_XXXXXX", in the test's
# directory).
ST_CFLAGS := -Wall -O2 -static -U_FORTIFY_SOURCE -fmacro-prefix-map=$(ST_MM)/= \
	-I$(ST_SRC) -I$(ST_OUT)/include \
	-isystem $(ST_SRC)/usr/include -isystem $(ST_SRC)/tools/include/uapi
ST_LIBS := -lrt -lpthread -lm
ST_COMMON := $(ST_OUT)/obj/vm_util.o $(ST_OUT)/obj/thp_settings.o

$(ST_SRC)/KSRC: selftests/tree.sh kernel/series $(wildcard kernel/patches/*.patch)
	@lab/deps.sh selftests
	selftests/tree.sh $(ST_SRC) $(KSRC)

$(ST_OUT)/include/local_config.h:
	@mkdir -p $(dir $@)
	echo '#define LOCAL_CONFIG_HAVE_LIBURING 1' > $@

$(ST_OUT)/obj/%.o: $(ST_SRC)/KSRC $(ST_OUT)/include/local_config.h selftests/selftests.mk
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) -c -o $@ $(ST_MM)/$*.c

$(ST_OUT)/bin/cow $(ST_OUT)/bin/gup_longterm: ST_LIBS += -luring
$(ST_OUT)/bin/mlock-random-test $(ST_OUT)/bin/memfd_secret: ST_LIBS += -lcap
$(ST_OUT)/bin/ksm_tests $(ST_OUT)/bin/migration: ST_LIBS += -lnuma
$(ST_OUT)/bin/uffd-stress $(ST_OUT)/bin/uffd-unit-tests: ST_COMMON += $(ST_OUT)/obj/uffd-common.o

$(ST_OUT)/bin/%: $(ST_OUT)/obj/%.o $(ST_COMMON) $(ST_OUT)/obj/uffd-common.o
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) -o $@ $< $(ST_COMMON) $(ST_LIBS)

$(ST_OUT)/bin/%.list: selftests/%.list
	@mkdir -p $(dir $@)
	cp $< $@

selftests-mm: $(ST_TESTS:%=$(ST_OUT)/bin/%) $(ST_OUT)/bin/mm.list $(ST_OUT)/bin/quick.list
.PHONY: selftests-mm
