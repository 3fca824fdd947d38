# hta: build, tests, benchmarks.  `make help` lists the targets.
#
# GNU conventions: CC, CFLAGS, CPPFLAGS, LDFLAGS, PREFIX, DESTDIR are
# honoured from the environment or the command line.  The flags in use are
# recorded in $(BUILD)/flags.stamp, so a change of flags rebuilds.
CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
CFLAGS  ?= -O2 -g
OPT     ?=
EXTRA   ?=
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
          -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wundef
HTA_CPPFLAGS = -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
# Evaluated when used, so a recursive make sees packages `deps` installed.
DEPCFLAGS = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags igraph))
# CBC, the optional second MIP engine (cbcx.h): CBC=yes links it.  Off by
# default: CBC is under the EPL 1.0, which does not combine with GLPK's
# GPLv3 in a binary that is given to others (README, Installation).
CBC      ?= no
HAVE_CBC  = $(filter yes,$(CBC))
CBCFLAGS  = $(if $(HAVE_CBC),-DHTA_HAVE_CBC $(patsubst -I%,-isystem %,$(shell pkg-config --cflags cbc)))
CBCLIBS   = $(if $(HAVE_CBC),$(shell pkg-config --libs cbc))
DEPLIBS   = $(shell pkg-config --libs igraph) -lglpk -lcadical $(CBCLIBS) -lstdc++ -lm -pthread
CFLAGS_ALL = $(WARN) $(CFLAGS) $(OPT) $(EXTRA) $(HTA_CPPFLAGS) $(CPPFLAGS) \
             $(DEPCFLAGS) $(CBCFLAGS)
LDFLAGS_ALL = $(CFLAGS) $(OPT) $(EXTRA) $(LDFLAGS)

# src/ by concern; everything but src/cli/ is the library (libhta.a).
LIBDIRS = core traces offline exact sat capacity import gen flowtime online rplace chart
LIBSRC  = $(foreach d,$(LIBDIRS),$(wildcard src/$(d)/*.c))
CLISRC  = $(wildcard src/cli/*.c)
LIBOBJ  = $(LIBSRC:src/%.c=$(BUILD)/obj/%.o)
PICOBJ  = $(LIBSRC:src/%.c=$(BUILD)/pic/%.o)
CLIOBJ  = $(CLISRC:src/%.c=$(BUILD)/obj/%.o)
TESTSRC = $(wildcard tests/unit/test_*.c)
TESTBIN = $(TESTSRC:tests/unit/%.c=$(BUILD)/tests/%)
HEADERS = $(wildcard include/hta/*.h src/*/*.h tests/unit/*.h)
STAMP   = $(BUILD)/flags.stamp
# The builds of all, demo, test, sanitize and valgrind compile on every
# processor (JOBS); a -j given to make itself wins.  One file at a time,
# CI's builds of the two trees (in four steps and the fresh box) took
# about 5 of its 30 minutes; the plain tree with its tests 29 -> 14 s.
JOBS    ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
PAR      = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(JOBS))

.PHONY: python all deps deps-test deps-bench demo test test-scale check sanitize bench \
        bench-ilp bench-close bench-exact bench-exact-top bench-capacity bench-flowtime bench-sim bench-levels bench-python bench-devices experiments valgrind fuzz install install-strip \
        uninstall clean help layering fresh-box man FORCE
all: deps
	@$(MAKE) $(PAR) --no-print-directory $(BUILD)/hta $(BUILD)/libhta.so python

help:
	@echo "make [all]       build $(BUILD)/hta (installs missing packages)"
	@echo "make demo        build and solve instances/example.txt"
	@echo "make test        build and run the whole test suite"
	@echo "make sanitize    the test suite under ASan+UBSan (build-san/)"
	@echo "make valgrind    corpus and CLI tests under valgrind memcheck"
	@echo "make fuzz FUZZ_SECONDS=60   libFuzzer on every parser"
	@echo "make bench       fsy benchmark (figures printed, nothing asserted)"
	@echo "make bench-ilp   exact solver vs plain GLPK, naive model, CBC"
	@echo "make bench-close     gap closing (fsy,close) on 10^3..10^6-task families"
	@echo "make bench-exact     hta exact vs GLPK vs CBC, 60 s each (SAT reductions, Zipf)"
	@echo "make bench-exact-top w_rem(r) on racks: hta exact vs HiGHS, 60 s each"
	@echo "make bench-capacity  capacity: flows (Dinic, generalized) vs the LP"
	@echo "make bench-flowtime  flow-time policies on 10^6 jobs, exact size limit"
	@echo "make bench-sim   tasks per second of the online simulator's policies"
	@echo "make bench-levels  four locality levels against two: fsy, memory, the bound"
	@echo "make bench-python  hta.solve from numpy arrays vs the C library and the command;\n                   pickling at 10^6 tasks; sweeps on Dask against one worker"
	@echo "make bench-devices huge pages: with and without (the device left)"
	@echo "make experiments reproductions of the papers, with plots"
	@echo "make CBC=yes     link CBC, the optional second MIP engine (for your own"
	@echo "                 use: its EPL 1.0 and GLPK's GPLv3 do not combine)"
	@echo "make install [PREFIX=/usr/local] [DESTDIR=...]  hta, its manual pages, completion,"
	@echo "                 libhta.a, libhta.so.0, include/hta, hta.pc (install-strip: stripped)"
	@echo "                 and the Python package hta (PYDIR: where Debian's python3 looks)"
	@echo "make uninstall   removes exactly that"
	@echo "make fresh-box   the README's two commands in a fresh Debian 12 root"
	@echo "make JOBS=N ...  compile on N processors (default: all of them)"

deps:
	@sh scripts/deps.sh build
	@if [ '$(CBC)' = yes ]; then sh scripts/deps.sh cbc; fi
deps-test:
	@sh scripts/deps.sh test
deps-bench:
	@sh scripts/deps.sh bench

# The stamp changes only when the flags do; every object depends on it.
$(STAMP): FORCE
	@case '$(CBC)' in yes|no) ;; *) echo 'CBC must be yes or no, found $(CBC)' >&2; exit 2 ;; esac
	@if [ '$(CBC)' = yes ] && ! pkg-config --exists cbc; then \
	    echo 'CBC=yes needs CBC (Debian coinor-libcbc-dev: sh scripts/deps.sh cbc)' >&2; exit 1; fi
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CFLAGS_ALL) | $(LDFLAGS_ALL)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(BUILD)/obj/%.o: src/%.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/libhta.a: $(LIBOBJ)
	@rm -f $@
	ar rcs $@ $^

# The shared library: the same sources position-independent, exporting
# only what include/hta/ declares (scripts/exports.sh), soname libhta.so.0.
$(BUILD)/pic/%.o: src/%.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -c $< -o $@

$(BUILD)/hta.map: $(wildcard include/hta/*.h) scripts/exports.sh
	@mkdir -p $(dir $@)
	sh scripts/exports.sh include/hta >$@

$(BUILD)/libhta.so.0: $(PICOBJ) $(BUILD)/hta.map
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,libhta.so.0 \
	    -Wl,--version-script=$(BUILD)/hta.map -Wl,--no-undefined \
	    $(PICOBJ) $(DEPLIBS) -o $@

$(BUILD)/libhta.so: $(BUILD)/libhta.so.0
	ln -sf libhta.so.0 $@

# The Python package (src/python/): the extension hta._hta over
# libhta.so.0, which sits beside it (rpath $ORIGIN), and the Python layer.
# Debian's python3 (python3-dev, python3-numpy), whatever python3 a PATH
# finds first.  -Wno-write-strings: CPython 3.11 takes keyword lists as
# char ** (PyArg_ParseTupleAndKeywords), so its string literals stay
# char[] there, as plain C has them.
PYTHON  ?= /usr/bin/python3
PYCFG    = $(shell $(PYTHON) -c 'import sysconfig as s; print(s.get_config_var("EXT_SUFFIX"), s.get_paths()["include"])' 2>/dev/null)
PYEXT    = $(word 1,$(PYCFG))
PYINC    = $(word 2,$(PYCFG))
NPINC    = $(shell $(PYTHON) -c 'import numpy; print(numpy.get_include())' 2>/dev/null)
PYCSRC   = $(wildcard src/python/*.c)
PYOBJ    = $(PYCSRC:src/%.c=$(BUILD)/pyobj/%.o)
PYPKG    = $(BUILD)/python/hta
PYFILES  = $(patsubst src/python/hta/%,$(PYPKG)/%,$(wildcard src/python/hta/*.py))

$(BUILD)/pyobj/%.o: src/%.c src/python/ext.h $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	@if [ -z '$(NPINC)' ]; then echo 'the Python package needs python3-dev and python3-numpy (sh scripts/deps.sh build)' >&2; exit 1; fi
	$(CC) $(CFLAGS_ALL) -Wno-write-strings -fPIC -fvisibility=hidden \
	    -isystem $(PYINC) -isystem $(NPINC) -c $< -o $@

$(PYPKG)/_hta$(PYEXT): $(PYOBJ) $(BUILD)/libhta.so.0
	@mkdir -p $(dir $@)
	cp $(BUILD)/libhta.so.0 $(PYPKG)/libhta.so.0
	$(CC) $(LDFLAGS_ALL) -shared $(PYOBJ) $(PYPKG)/libhta.so.0 \
	    -Wl,-rpath,'$$ORIGIN' -o $@

$(PYPKG)/%.py: src/python/hta/%.py
	@mkdir -p $(dir $@)
	cp $< $@

python: $(PYPKG)/_hta$(PYEXT) $(PYFILES)

$(BUILD)/hta: $(CLIOBJ) $(BUILD)/libhta.a
	$(CC) $(LDFLAGS_ALL) $(CLIOBJ) $(BUILD)/libhta.a $(DEPLIBS) -o $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libhta.a $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit $< $(BUILD)/libhta.a $(DEPLIBS) \
	    -lcmocka -o $@

demo: deps
	@$(MAKE) $(PAR) --no-print-directory $(BUILD)/hta python
	$(BUILD)/hta solve instances/example.txt --algo rr,fsy,brute

# The library never includes from the command line above it.
layering:
	@sh scripts/layering.sh

# The whole suite: unit tests, bad-input corpus, CLI golden tests, oracles.
# Warnings are errors here.  The suite runs a checked build (assertions
# of the algorithms' invariants: -DHTA_CHECKED) in its own tree,
# $(CHECKED); $(CHECKED)/cbc is the same with CBC=yes, for the optional
# engine's tests.  $(BUILD)/hta stays the release binary, built too.
CHECKED = $(BUILD)/checked
test check: deps-test layering
	@$(MAKE) $(PAR) --no-print-directory $(BUILD)/hta python
	@$(MAKE) $(PAR) --no-print-directory BUILD=$(CHECKED) \
	    EXTRA="$(EXTRA) -Werror -DHTA_CHECKED" $(CHECKED)/hta \
	    $(TESTBIN:$(BUILD)/%=$(CHECKED)/%) python
	@$(MAKE) $(PAR) --no-print-directory BUILD=$(CHECKED)/cbc CBC=yes \
	    EXTRA="$(EXTRA) -Werror -DHTA_CHECKED" $(CHECKED)/cbc/hta \
	    $(CHECKED)/cbc/tests/test_ilp
	@sh tests/run.sh $(CHECKED) --cbc $(CHECKED)/cbc

SANFLAGS = -Werror -fsanitize=address,undefined,float-cast-overflow \
           -fno-omit-frame-pointer -fno-sanitize-recover=all -DHTA_CHECKED
sanitize: deps-test
	@$(MAKE) $(PAR) --no-print-directory BUILD=build-san CFLAGS="-O1 -g" \
	    EXTRA="$(SANFLAGS)" build-san/hta $(TESTBIN:$(BUILD)/%=build-san/%)
	@$(MAKE) $(PAR) --no-print-directory BUILD=build-san/cbc CBC=yes CFLAGS="-O1 -g" \
	    EXTRA="$(SANFLAGS)" build-san/cbc/hta build-san/cbc/tests/test_ilp
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    sh tests/run.sh build-san --cbc build-san/cbc

$(BUILD)/bench_fsy: scripts/bench_fsy.c $(BUILD)/libhta.a $(HEADERS)
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libhta.a $(DEPLIBS) -o $@

# The corpus and the CLI tests with hta under valgrind memcheck.
# The exact portfolio at 10^6 tasks: --time-limit and signals in every
# phase (tests/scale/run.sh; CI only, about three minutes).
test-scale: deps-test
	@$(MAKE) $(PAR) --no-print-directory $(BUILD)/hta
	@t=$$(mktemp -d) && sh tests/scale/run.sh $(CURDIR)/$(BUILD)/hta $$t; \
	    rc=$$?; rm -rf "$$t"; exit $$rc

valgrind: deps-test
	@$(MAKE) $(PAR) --no-print-directory $(BUILD)/hta python
	@$(MAKE) $(PAR) --no-print-directory BUILD=$(BUILD)/cbc CBC=yes $(BUILD)/cbc/hta
	@sh tests/run.sh $(BUILD) --valgrind --cbc $(BUILD)/cbc

# libFuzzer harnesses (clang): FUZZ_SECONDS per harness.
FUZZ_SECONDS ?= 60
fuzz: deps-test
	@sh scripts/deps.sh fuzz
	@sh scripts/fuzz.sh $(FUZZ_SECONDS)

bench: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta $(BUILD)/bench_fsy
	@sh scripts/bench.sh $(BUILD)

bench-ilp: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_ilp.sh $(BUILD) 10

bench-close: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_close.sh $(BUILD)

# hta built with CBC=yes ($(BUILD)/cbc): exact runs GLPK and CBC side by side.
bench-exact: deps-bench
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/cbc CBC=yes $(BUILD)/cbc/hta
	@sh scripts/bench_exact.sh $(BUILD)/cbc
	@sh scripts/bench_exact_top.sh $(BUILD)/cbc

# The paper's w_rem(r) on racks, hta against HiGHS: bench-exact's last
# section alone.
bench-exact-top: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_exact_top.sh $(BUILD)

bench-capacity: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_capacity.sh $(BUILD)

bench-flowtime: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_flowtime.sh $(BUILD)

bench-sim: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_sim.sh $(BUILD)

$(BUILD)/bench_api: scripts/bench_api.c $(BUILD)/libhta.a $(HEADERS)
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libhta.a $(DEPLIBS) -o $@

bench-devices: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_devices.sh $(BUILD)

bench-python: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta $(BUILD)/bench_api python
	@sh scripts/bench_python.sh $(BUILD)

bench-levels: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/bench_levels.sh $(BUILD)

# Reproductions of the papers' results, with plots in $(BUILD)/experiments.
experiments: deps-bench
	@$(MAKE) --no-print-directory $(BUILD)/hta
	@sh scripts/experiments.sh $(BUILD)
	@sh scripts/capacity_plots.sh $(BUILD)
	@sh scripts/flowtime_experiments.sh $(BUILD)
	@sh scripts/sim_experiments.sh $(BUILD)
	@sh scripts/rplace_experiments.sh $(BUILD)
	@sh scripts/priority_experiment.sh $(BUILD)
	@sh scripts/tan_sensitivity.sh $(BUILD)
	@sh scripts/gbpandas_hotspot.sh $(BUILD)
	@sh scripts/wang_fb.sh $(BUILD)

# Installation (GNU conventions; DESTDIR for staging).  install depends
# on the built files only: it never runs apt-get.
BINDIR  = $(PREFIX)/bin
LIBDIR  = $(PREFIX)/lib
INCDIR  = $(PREFIX)/include
MANDIR  = $(PREFIX)/share/man
PCDIR   = $(LIBDIR)/pkgconfig
COMPDIR = $(PREFIX)/share/bash-completion/completions
DOCDIR  = $(PREFIX)/share/doc/hta
INSTALL ?= install
STRIP_FLAG ?=
VERSION = $(shell sed -n 's/^\#define HTA_VERSION "\(.*\)"/\1/p' include/hta/version.h)
PUBHDR  = $(wildcard include/hta/*.h)
SCHEMAS = $(wildcard src/cli/doc/*.schema.json)

# The manual pages: hta(1), one page per command, hta-formats(5),
# hta-policy(7).
MANSRC  = $(wildcard src/cli/doc/*.scd)
MANPAGES = $(patsubst src/cli/doc/%.scd,$(BUILD)/man/%,$(MANSRC))
MAN1    = $(filter %.1,$(MANPAGES))
MAN5    = $(filter %.5,$(MANPAGES))
MAN7    = $(filter %.7,$(MANPAGES))
man: $(MANPAGES)
$(BUILD)/man/%: src/cli/doc/%.scd
	@mkdir -p $(dir $@)
	scdoc <$< >$@

# The prefix written into hta.pc: a change of PREFIX rewrites it.
$(BUILD)/prefix.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(BUILD)/hta.pc: Makefile src/cli/main.c $(BUILD)/prefix.stamp
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' \
	    'libdir=$${exec_prefix}/lib' 'includedir=$${prefix}/include' '' \
	    'Name: hta' \
	    'Description: task assignment with data locality (library of the hta tool)' \
	    'Version: $(VERSION)' 'Requires: igraph' \
	    'Libs: -L$${libdir} -lhta -lglpk -lcadical $(CBCLIBS) -lstdc++ -lm -pthread' 'Cflags: -I$${includedir}' >$@

# The Python package where Debian's python3 finds it.
PYVER   = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYDIR  ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PYVER)/dist-packages)

install: $(BUILD)/hta $(BUILD)/libhta.a $(BUILD)/libhta.so $(MANPAGES) $(BUILD)/hta.pc python
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(INCDIR)/hta $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(PCDIR) \
	    $(DESTDIR)$(COMPDIR) $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(STRIP_FLAG) $(BUILD)/hta $(DESTDIR)$(BINDIR)/hta
	$(INSTALL) -m 644 $(BUILD)/libhta.a $(DESTDIR)$(LIBDIR)/libhta.a
	$(INSTALL) -m 755 $(STRIP_FLAG) $(BUILD)/libhta.so.0 $(DESTDIR)$(LIBDIR)/libhta.so.0
	ln -sf libhta.so.0 $(DESTDIR)$(LIBDIR)/libhta.so
	$(INSTALL) -m 644 $(PUBHDR) $(DESTDIR)$(INCDIR)/hta/
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7/
	$(INSTALL) -m 644 $(BUILD)/hta.pc $(DESTDIR)$(PCDIR)/hta.pc
	$(INSTALL) -m 644 src/cli/doc/hta.bash-completion $(DESTDIR)$(COMPDIR)/hta
	$(INSTALL) -m 644 LICENSE CHANGELOG.md $(SCHEMAS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -d $(DESTDIR)$(PYDIR)/hta
	$(INSTALL) -m 644 $(PYFILES) $(DESTDIR)$(PYDIR)/hta/
	$(INSTALL) -m 755 $(STRIP_FLAG) $(PYPKG)/_hta$(PYEXT) $(PYPKG)/libhta.so.0 $(DESTDIR)$(PYDIR)/hta/

install-strip:
	@$(MAKE) --no-print-directory install STRIP_FLAG=-s

# Removes exactly what install put there.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hta $(DESTDIR)$(LIBDIR)/libhta.a \
	    $(DESTDIR)$(LIBDIR)/libhta.so.0 $(DESTDIR)$(LIBDIR)/libhta.so \
	    $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7))) \
	    $(DESTDIR)$(PCDIR)/hta.pc \
	    $(DESTDIR)$(COMPDIR)/hta \
	    $(addprefix $(DESTDIR)$(INCDIR)/hta/,$(notdir $(PUBHDR))) \
	    $(addprefix $(DESTDIR)$(DOCDIR)/,LICENSE CHANGELOG.md $(notdir $(SCHEMAS))) \
	    $(addprefix $(DESTDIR)$(PYDIR)/hta/,$(notdir $(PYFILES)) _hta$(PYEXT) libhta.so.0)
	-rm -rf $(DESTDIR)$(PYDIR)/hta/__pycache__
	-rmdir $(DESTDIR)$(INCDIR)/hta $(DESTDIR)$(DOCDIR) $(DESTDIR)$(PYDIR)/hta 2>/dev/null

# The README's two commands, verbatim, in a minimal debootstrap root.
fresh-box:
	@sh scripts/fresh-box.sh

clean:
	rm -rf build build-san build-fuzz build-dev build-rel
