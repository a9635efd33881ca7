# Stern - Chinese Checkers engine. `make` builds everything under build/;
# `make test` builds and runs every cmocka test; `make asan` / `make tsan` run the
# tests under AddressSanitizer+UBSan / ThreadSanitizer.
CC ?= cc
ARCH := $(shell uname -m)
ifeq ($(ARCH),x86_64)
  MARCH ?= -march=x86-64-v2
endif
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
OPT ?= -O3 $(MARCH) -g
CFLAGS := $(OPT) -std=gnu17 $(WARN) -pthread $(EXTRA_CFLAGS)
# Each library sees only its own headers and those of the layers below it
# (rules < eval < solve < search, book < protocol < tools and tests): a file that
# includes a header of a layer above does not compile. tests/build/layering.sh
# checks the calls the same way on the objects.
INC_RULES := -Iengine/rules
INC_EVAL := $(INC_RULES) -Iengine/eval -Iengine/eval/nnue
INC_SOLVE := $(INC_EVAL) -Iengine/solve
INC_SEARCH := $(INC_SOLVE) -Iengine/search
INC_BOOK := $(INC_RULES) -Iengine/book
INC_PROTO := $(INC_SEARCH) -Iengine/book -Iprotocol
INCLUDES := $(INC_PROTO) -Itools/lib
LDLIBS := -lxxhash -pthread -lm
BUILD ?= build

RULES_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard engine/rules/*.c))
EVAL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard engine/eval/*.c engine/eval/nnue/*.c))
SOLVE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard engine/solve/*.c))
SEARCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard engine/search/*.c))
BOOK_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard engine/book/*.c))
PROTO_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out protocol/main.c,$(wildcard protocol/*.c)))
TOOLLIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/lib/*.c))
# The tools: a folder a program, tools/NAME/NAME_main.c being stern-NAME, with
# the modules only that program uses beside it (archived as tools/NAME/NAME.a);
# tools/lib/ holds what several share (libtools.a), tools/research/ the
# research programs below.
TOOL_NAMES := $(patsubst tools/%/,%,$(dir $(filter-out tools/research/%,$(wildcard tools/*/*_main.c))))
tool_private = $(patsubst %.c,$(BUILD)/%.o,$(filter-out tools/$(1)/$(1)_main.c,$(wildcard tools/$(1)/*.c)))
tool_archive = $(if $(call tool_private,$(1)),$(BUILD)/tools/$(1)/$(1).a)
TOOL_ARCHIVES := $(foreach t,$(TOOL_NAMES),$(call tool_archive,$(t)))
# The rules (board ... perft) stand alone; the evaluation is built on them, the
# solvers on both, the search on all three.
LIB := $(BUILD)/libbook.a $(BUILD)/libsearch.a $(BUILD)/libsolve.a $(BUILD)/libeval.a $(BUILD)/librules.a
TOOLS := $(patsubst %,$(BUILD)/stern-%,$(TOOL_NAMES))
# Research programs behind claims in docs/ (not installed): the solitaire
# crossing proof (docs/RACE.md) and the capture-mode model (docs/MULTI.md).
RESEARCH := $(BUILD)/stern-cross $(BUILD)/stern-capture-model
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
TEST_SUPPORT := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/support/*.c))

# Random protocol sessions `make test` runs (tests/stress.c); `make stress`
# runs STRESS_SESSIONS of them on their own. isready must answer within
# READY_MS (sanitizer builds are slower, see asan and tsan).
STRESS_SESSIONS ?= 60
READY_MS ?= 100

.PHONY: web web-deps web-src test-web all deps build-deps test-deps nnue-deps slurm-deps net board-deps test test-board test-slurm clean asan tsan play board stress fuzz fuzz-run install books
all: build-deps $(BUILD)/stern $(TOOLS) $(RESEARCH)

# The objects of test and tool programs, made on the way to them, are kept
# between runs: a second `make test` with nothing changed compiles and links
# nothing. (Not every target: a missing archive must be rebuilt.)
.SECONDARY: $(patsubst %,%.o,$(TESTS)) $(TEST_SUPPORT) $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/*/*_main.c)) \
	$(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/research/*.c)) \
	$(patsubst tests/fuzz/%.c,$(BUILD)/tests/fuzz/%.o,$(wildcard tests/fuzz/*.c))

# Installs a library the build needs when it is missing (Debian, as root): the
# engine needs only libxxhash, stern-board civetweb and jansson, the tests
# also cmocka, and the browser tests Debian's chromium and npm.
define need_header
	@if [ ! -e $(if $(filter /%,$(1)),$(1),/usr/include/$(1)) ]; then \
	  echo "installing $(2)"; $(APT_INSTALL) $(2); \
	fi
endef

# Waits for a package lock another apt or dpkg holds, and says how to go on
# when it cannot install (tests/build/apt-install.sh).
APT_INSTALL := tests/build/apt-install.sh

# `make deps` installs all of it; a build asks only for what it compiles with.
deps: build-deps test-deps board-deps nnue-deps web-deps web-src

build-deps:
	$(call need_header,xxhash.h,libxxhash-dev)
	$(call need_header,civetweb.h,libcivetweb-dev)
	$(call need_header,jansson.h,libjansson-dev)

test-deps: build-deps
	$(call need_header,cmocka.h,libcmocka-dev)

# The trainer of the learned evaluation (tools/nnue, docs/NNUE.md): Debian's
# PyTorch, NumPy and xxhash for the system python.
PYTHON ?= /usr/bin/python3
nnue-deps:
	@$(PYTHON) -c 'import torch, numpy, xxhash' 2>/dev/null || { echo "installing python3-torch"; \
	  $(APT_INSTALL) python3-torch python3-numpy python3-xxhash; }

# Objects wait for the libraries (order only: installing one rebuilds nothing;
# one apt-get at a time), the cmocka tests' for cmocka too.
$(BUILD)/tests/test_%.o: tests/test_%.c | test-deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INCLUDES) -MMD -MP -c $< -o $@

$(BUILD)/tests/support/%.o: tests/support/%.c | test-deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INCLUDES) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INCLUDES) -MMD -MP -c $< -o $@

$(BUILD)/engine/rules/%.o: INCLUDES := $(INC_RULES)
$(BUILD)/engine/eval/%.o: INCLUDES := $(INC_EVAL)
$(BUILD)/engine/solve/%.o: INCLUDES := $(INC_SOLVE)
$(BUILD)/engine/search/%.o: INCLUDES := $(INC_SEARCH)
$(BUILD)/engine/book/%.o: INCLUDES := $(INC_BOOK)
$(BUILD)/protocol/%.o: INCLUDES := $(INC_PROTO)
# The tools see the engine's headers, not the protocol's (a tool speaks to an
# engine over its pipes), and their own modules beside them (#include "...");
# the tests and fuzzers of those modules see every tool folder's headers.
$(BUILD)/tools/%.o: INCLUDES := $(INC_SEARCH) -Iengine/book -Itools/lib
$(BUILD)/tests/%.o: INCLUDES := $(INCLUDES) $(patsubst %/,-I%,$(filter-out tools/lib/,$(sort $(dir $(wildcard tools/*/*.h)))))

# Each library is its objects, archived afresh (libtools below may have none).
$(BUILD)/librules.a: $(RULES_OBJ)
$(BUILD)/libeval.a: $(EVAL_OBJ)
$(BUILD)/libsolve.a: $(SOLVE_OBJ)
$(BUILD)/libsearch.a: $(SEARCH_OBJ)
$(BUILD)/libbook.a: $(BOOK_OBJ)
$(BUILD)/libproto.a: $(PROTO_OBJ)
$(patsubst %,$(BUILD)/lib%.a,rules eval solve search book proto):
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtools.a: $(TOOLLIB_OBJ)
	@rm -f $@
	ar rcs $@ $^ $(if $(TOOLLIB_OBJ),,/dev/null)

$(BUILD)/stern: $(BUILD)/protocol/main.o $(BUILD)/libproto.a $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# stern-NAME: its main, its folder's archive (when it has modules of its own),
# the shared tools and the engine's libraries
define tool_rules
$(BUILD)/stern-$(1): $(BUILD)/tools/$(1)/$(1)_main.o $(call tool_archive,$(1)) $(BUILD)/libtools.a $(LIB)
	$$(CC) $$(CFLAGS) -o $$@ $$^ $$(LDLIBS)
$(if $(call tool_private,$(1)),$(BUILD)/tools/$(1)/$(1).a: $(call tool_private,$(1))
	@rm -f $$@
	ar rcs $$@ $$^)
endef
$(foreach t,$(TOOL_NAMES),$(eval $(call tool_rules,$(t))))

# the table's server: HTTP and WebSocket by civetweb, JSON by jansson
$(BUILD)/stern-board: LDLIBS += -lcivetweb -ljansson
# the rating list's referee records are JSON lines
$(BUILD)/stern-ladder: LDLIBS += -ljansson

$(BUILD)/stern-cross: $(BUILD)/tools/research/cross_main.o $(BUILD)/libtools.a $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/stern-capture-model: $(BUILD)/tools/research/capture_model.o $(BUILD)/libtools.a $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/stern-stress: $(BUILD)/tests/stress.o $(BUILD)/libtools.a $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT) $(BUILD)/libproto.a $(TOOL_ARCHIVES) $(BUILD)/libtools.a $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# Every test binary runs from the top directory; protocol tests start build/stern.
test: all nnue-deps $(TESTS) $(BUILD)/stern-stress $(BUILD)/stern-book
	@fail=0; for t in $(TESTS); do echo "== $$t"; STERN_BIN=$(BUILD)/stern $$t || fail=1; done; \
	echo "== layering"; tests/build/layering.sh $(BUILD) && tests/build/layering_planted.sh $(BUILD) || fail=1; \
	echo "== shipped books"; for b in book/*.bin; do $(BUILD)/stern-book verify $$b || fail=1; done; \
	echo "== shipped nets"; for n in $(wildcard nets/*.nnue); do $(BUILD)/stern-nnue info $$n || fail=1; done; \
	echo "== nnue training smoke"; tests/nnue/smoke.sh $(BUILD) $(PYTHON) || fail=1; \
	echo "== nnue planted seat view"; tests/nnue/planted_view.sh $(BUILD) "$(OPT)" || fail=1; \
	echo "== stress"; $(BUILD)/stern-stress --engine $(BUILD)/stern --sessions $(STRESS_SESSIONS) --ready-ms $(READY_MS) || fail=1; \
	if [ $$fail = 0 ]; then echo "all test binaries passed"; else echo "some tests FAILED"; exit 1; fi
	$(if $(SKIP_BOARD),,$(MAKE) --no-print-directory test-board)
	$(if $(SKIP_WEB),,$(MAKE) --no-print-directory test-web)

# A real one-node Slurm cluster (docs/CLUSTER.md): Debian's munge and Slurm
# daemons on localhost, started and stopped by the test; needs root.
slurm-deps:
	$(call need_header,/usr/sbin/slurmctld,slurmctld slurmd slurm-client munge)

test-slurm: all slurm-deps
	tests/slurm/test-slurm.sh $(BUILD)

# The table in a real browser (tests/board/): Debian's chromium driven by
# playwright-core, pinned in package-lock.json.
board-deps:
	$(call need_header,/usr/bin/chromium,chromium)
	$(call need_header,/usr/bin/npm,npm)
	@[ -d node_modules/playwright-core ] || npm ci --silent --no-audit --no-fund

test-board: all board-deps
	BOARD_BUILD=$(BUILD) node tests/board/run.mjs

stress: all $(BUILD)/stern-stress
	$(BUILD)/stern-stress --engine $(BUILD)/stern --sessions $(STRESS_SESSIONS) --ready-ms $(READY_MS)

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" READY_MS=1000 STRESS_SESSIONS=30 SKIP_BOARD=1 SKIP_WEB=1 test

# halt_on_error: a race ends the engine, so the test that drove it fails.
tsan:
	TSAN_OPTIONS="halt_on_error=1 $$TSAN_OPTIONS" $(MAKE) BUILD=build-tsan OPT="-O1 -g -fsanitize=thread" READY_MS=1000 STRESS_SESSIONS=30 SKIP_BOARD=1 SKIP_WEB=1 test

# libFuzzer harnesses (tests/fuzz/) with Debian's clang and libclang-rt-14-dev;
# `make fuzz` runs each for FUZZ_SECONDS on its seed corpus (tests/fuzz/corpus/),
# keeping what it finds in build-fuzz/corpus/.
FUZZERS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(BUILD)/libproto.a $(TOOL_ARCHIVES) $(BUILD)/libtools.a $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

$(BUILD)/fuzz/fuzz_board: LDLIBS += -ljansson

fuzz:
	@command -v clang >/dev/null && [ -n "$$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a 2>/dev/null)" ] || \
	  $(APT_INSTALL) clang libclang-rt-14-dev
	$(MAKE) BUILD=build-fuzz CC=clang OPT="$(FUZZ_FLAGS)" fuzz-run

fuzz-run: build-deps $(patsubst %,$(BUILD)/fuzz/%,$(FUZZERS))
	@for f in $(FUZZERS); do mkdir -p $(BUILD)/corpus/$$f; echo "== $$f ($(FUZZ_SECONDS) s)"; \
	  $(BUILD)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
	    -artifact_prefix=$(BUILD)/$$f- $(BUILD)/corpus/$$f tests/fuzz/corpus/$$f || exit 1; done

# The engine as WebAssembly for web pages (docs/WEB.md), built with Debian's
# emscripten: stern-mt (threads; a cross-origin isolated page) and stern-st (one
# thread, any page), the worker that hosts them (tools/web/), and the shipped
# nets and books, fetched by variant. xxhash is used header-only (its header
# alone is put where emcc looks), and emcc needs acorn where Debian keeps it.
EMCC ?= emcc
WEB := $(BUILD)/web
WEB_SRC := $(wildcard engine/*/*.c engine/eval/nnue/*.c protocol/*.c)
WEB_HDR := $(wildcard engine/*/*.h engine/eval/nnue/*.h protocol/*.h)
WEB_CFLAGS := -O3 -flto -msimd128 -mbulk-memory -std=gnu17 $(WARN) -DXXH_INLINE_ALL -I$(BUILD)/web-inc $(INC_PROTO)
WEB_LDFLAGS := -sMODULARIZE -sEXPORT_NAME=SternEngine -sEXPORTED_FUNCTIONS=_main,_malloc,_stern_input,_stern_input_end \
  -sEXPORTED_RUNTIME_METHODS=FS,ccall -sALLOW_MEMORY_GROWTH -sINITIAL_MEMORY=128MB -sMAXIMUM_MEMORY=2GB \
  -sENVIRONMENT=web,worker,node -sEXIT_RUNTIME -Wno-pthreads-mem-growth
WEB_FILES := $(wildcard tools/web/*.js tools/web/*.html)

web-deps:
	$(call need_header,/usr/bin/emcc,emscripten node-acorn)
	$(call need_header,xxhash.h,libxxhash-dev)
	$(call need_header,/usr/bin/curl,curl)

# The board as a static site: the table of stern-board (tools/board/board_table.c)
# as WebAssembly in a worker of the page (tools/web/table_web.c), its engines
# Web Workers (tools/web/engine_worker.c). The table speaks JSON with jansson,
# built from Debian's source of the version Debian ships (checked by its hash).
JANSSON := jansson-2.14
JANSSON_SHA256 := c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b
JANSSON_DIR := $(BUILD)/web-src/$(JANSSON)
JANSSON_SRC := $(addprefix $(JANSSON_DIR)/src/,dump.c error.c hashtable.c hashtable_seed.c load.c memory.c \
  pack_unpack.c strbuffer.c strconv.c utf.c value.c version.c)
TABLE_WEB_SRC := tools/board/board_table.c tools/web/table_web.c tools/web/engine_worker.c \
  $(addprefix tools/lib/,engine_base.c engine_talk.c info_line.c pgn_read.c record.c referee.c) \
  $(wildcard engine/rules/*.c)

JANSSON_URLS := https://deb.debian.org/debian/pool/main/j/jansson/jansson_2.14.orig.tar.gz \
  https://snapshot.debian.org/archive/debian/20250520T000000Z/pool/main/j/jansson/jansson_2.14.orig.tar.gz

# fetched by `make deps` (web-src), so that `make test` runs without a network
web-src: $(JANSSON_DIR)/src/jansson_config.h

$(JANSSON_DIR)/src/jansson_config.h: | web-deps
	@mkdir -p $(BUILD)/web-src
	@tgz=$(BUILD)/web-src/$(JANSSON).tar.gz; for url in $(JANSSON_URLS); do \
	  echo "fetching $$url"; curl -sSfL -m 120 -o $$tgz $$url && break; done; \
	  if ! echo "$(JANSSON_SHA256)  $$tgz" | sha256sum -c --quiet; then \
	    rm -f $$tgz; echo "jansson's source: no copy with SHA-256 $(JANSSON_SHA256)"; exit 1; fi
	tar -xzf $(BUILD)/web-src/$(JANSSON).tar.gz -C $(BUILD)/web-src
	sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' -e 's/@json_have_localeconv@/1/' \
	  -e 's/@json_have_atomic_builtins@/1/' -e 's/@json_have_sync_builtins@/1/' $@.in > $@
	printf '#define HAVE_%s 1\n' STDINT_H UNISTD_H SYS_TYPES_H SYS_TIME_H GETTIMEOFDAY GETPID LOCALECONV \
	  ATOMIC_BUILTINS SYNC_BUILTINS > $(JANSSON_DIR)/src/jansson_private_config.h

# jansson's own sources, built apart with its own warnings
$(JANSSON_DIR)/libjansson.a: $(JANSSON_DIR)/src/jansson_config.h
	cd $(JANSSON_DIR) && NODE_PATH=/usr/share/nodejs $(EMCC) -O2 -c -Isrc -DHAVE_CONFIG_H $(patsubst $(JANSSON_DIR)/%,%,$(JANSSON_SRC))
	cd $(JANSSON_DIR) && emar rcs libjansson.a $(notdir $(JANSSON_SRC:.c=.o))

$(WEB)/stern-table.js: $(TABLE_WEB_SRC) $(wildcard tools/board/*.h tools/lib/*.h engine/rules/*.h) $(JANSSON_DIR)/libjansson.a $(BUILD)/web-inc/xxhash.h | web-deps
	@mkdir -p $(WEB)
	NODE_PATH=/usr/share/nodejs $(EMCC) -O2 -std=gnu17 $(WARN) -DXXH_INLINE_ALL -I$(BUILD)/web-inc -Itools/board \
	  -Itools/lib $(INC_PROTO) -I$(JANSSON_DIR)/src -DTABLE_HANDSHAKE_MS=60000 -sMODULARIZE -sEXPORT_NAME=SternTable \
	  -sEXPORTED_FUNCTIONS=_table_web_start,_table_web_message,_table_web_tick,_malloc,_free \
	  -sEXPORTED_RUNTIME_METHODS=ccall,stringToUTF8,lengthBytesUTF8 -sALLOW_MEMORY_GROWTH -sENVIRONMENT=worker \
	  -sASYNCIFY -sASYNCIFY_STACK_SIZE=65536 -o $@ $(TABLE_WEB_SRC) $(JANSSON_DIR)/libjansson.a

$(BUILD)/web-inc/xxhash.h: | web-deps
	@mkdir -p $(dir $@)
	ln -sf /usr/include/xxhash.h $@

$(WEB)/stern-mt.js: $(WEB_SRC) $(WEB_HDR) $(BUILD)/web-inc/xxhash.h | web-deps
	@mkdir -p $(WEB)
	NODE_PATH=/usr/share/nodejs $(EMCC) $(WEB_CFLAGS) -pthread -sPROXY_TO_PTHREAD $(WEB_LDFLAGS) -o $@ $(WEB_SRC)

$(WEB)/stern-st.js: $(WEB_SRC) $(WEB_HDR) $(BUILD)/web-inc/xxhash.h | web-deps
	@mkdir -p $(WEB)
	NODE_PATH=/usr/share/nodejs $(EMCC) $(WEB_CFLAGS) $(WEB_LDFLAGS) -sASYNCIFY -sASYNCIFY_IGNORE_INDIRECT -o $@ $(WEB_SRC)

web: web-deps $(WEB)/stern-mt.js $(WEB)/stern-st.js $(WEB)/stern-table.js $(WEB_FILES) $(wildcard tools/board/page/*)
	@mkdir -p $(WEB)/nets $(WEB)/book
	cp $(WEB_FILES) $(filter-out %/index.html,$(wildcard tools/board/page/*)) $(WEB)/
	sed 's/<meta name="stern-table" content="websocket">/<meta name="stern-table" content="worker">/' \
	  tools/board/page/index.html > $(WEB)/index.html
	grep -q 'content="worker"' $(WEB)/index.html
	cp nets/*.nnue $(WEB)/nets/
	cp book/*.bin $(WEB)/book/
	tools/web/manifest.sh $(WEB) > $(WEB)/files.json

# The WebAssembly engine (tests/web/): the native engine's lines and answers
# under node for every variant, then real Chromium with and without
# cross-origin isolation; then the board's browser tests on the static site
# (build/web behind a plain static server, and an isolated one).
test-web: all web board-deps
	tests/web/same-as-native.sh $(BUILD)
	WEB_BUILD=$(BUILD) node tests/web/browser.mjs
	BOARD_STATIC=plain BOARD_BUILD=$(BUILD) node tests/board/run.mjs
	BOARD_STATIC=isolated BOARD_BUILD=$(BUILD) node tests/board/run.mjs

# The main job: a whole game between two engine processes, printed on the terminal.
play: all
	$(BUILD)/stern-play

# The table (docs/BOARD.md): a web page to play and analyse against Stern.
BOARD_PORT ?= 8080
board: all
	$(BUILD)/stern-board -port $(BOARD_PORT) -engine cmd=$(BUILD)/stern name=Stern

# Installs the engine and the tools into $(DESTDIR)$(PREFIX)/bin, and the docs
# into $(DESTDIR)$(PREFIX)/share/doc/stern in the repository's layout (their
# links hold there too).
PREFIX ?= /usr/local
# The shipped opening books (book/, committed; docs/BOOK.md): `make books`
# builds them all again with the engine of this tree, each in well under 30
# minutes on two cores, with the settings of book/books.conf (as a Slurm array
# job: tools/book/books-array.sh).
BOOK_CONCURRENCY ?= 2

books: $(BUILD)/stern $(BUILD)/stern-book
	@grep -q '^[a-z]' book/books.conf || { echo "book/books.conf: no book to build"; exit 2; }
	grep '^[a-z]' book/books.conf | while read -r v args; do \
	  $(BUILD)/stern-book build -variant $$v $$args -concurrency $(BOOK_CONCURRENCY) -o book/$$v.bin < /dev/null && \
	  $(BUILD)/stern-book verify book/$$v.bin || exit 1; done

# The shipped nets of the learned evaluation (nets/, committed; docs/NNUE.md):
# `make net VARIANT=classic-2` (classic-4) makes nets/classic-2.nnue (classic-4's) again from nothing on
# this tree, in generations: generation k's self-play data (build/nets/, kept
# and resumed; seed k) is played with generation k-1's net, and generation k's
# net is trained, with one torch thread (the same file every run), on the data
# of generations 1 to k (NET_WINDOW_v = w: of the last w generations only; a
# list: each generation's w in turn, the last for the rest);
# NET_TEACHER_v: each generation's teacher in turn, hand (the default) or net
# (the data holds the playing net's standings: stern-datagen -teacher net;
# not generation 1, which no net plays); the last net is shipped (NET_OUT_v:
# elsewhere). Its settings, per variant (the games and the nodes a move of
# each generation in turn: NET_GAMES and NET_NODES, else NET_DATA's -games
# and -nodes):
VARIANT ?= classic-2
NET_DATA_classic-2 := -games 6000 -nodes 2000 -random 8
NET_TRAIN_classic-2 := --variants classic-2 --l1 32 --l2 8 --epochs 12 --seed 1
# classic-3 and classic-4 share one recipe: three generations taught by the
# hand-written standings, the fourth by generation 3's net
define NET_FOUR_GENERATIONS
NET_GENS_$(1) := 4
NET_GAMES_$(1) := 1000 2000 2000 2000
NET_NODES_$(1) := 1000 2000 3000 3000
NET_TEACHER_$(1) := hand hand hand net
NET_WINDOW_$(1) := 1
NET_DATA_$(1) := -random 8
NET_TRAIN_$(1) := --variants $(1) --l1 32 --l2 8 --epochs 12 --seed 1
endef
$(foreach v,classic-3 classic-4,$(eval $(call NET_FOUR_GENERATIONS,$(v))))
NET_GENS_classic-6 := 6
NET_GAMES_classic-6 := 1000 2000 2000 2000 2000 2000
NET_NODES_classic-6 := 1000 2000 3000 3000 3000 3000
NET_TEACHER_classic-6 := hand hand hand net net net
NET_WINDOW_classic-6 := 1 1 1 1 1 2
NET_DATA_classic-6 := -random 12
NET_OUT_classic-6 := $(BUILD)/nets/classic-6.nnue
NET_TRAIN_classic-6 := --variants classic-6 --l1 32 --l2 8 --epochs 12 --seed 1
# games played at once while making data (default: the CPUs); the data is the same
NET_THREADS ?=
net: $(BUILD)/stern-datagen $(BUILD)/stern-nnue nnue-deps
	@test -n "$(NET_DATA_$(VARIANT))" || { echo "no net settings for $(VARIANT)"; exit 2; }
	@mkdir -p $(BUILD)/nets nets
	@set -e; data=""; prev=""; for k in $$(seq 1 $(or $(NET_GENS_$(VARIANT)),1)); do \
	  g=$(BUILD)/nets/$(VARIANT).g$$k; \
	  echo "== generation $$k"; \
	  games=$$(echo $(NET_GAMES_$(VARIANT)) | awk -v k=$$k '{print $$k}'); \
	  nodes=$$(echo $(NET_NODES_$(VARIANT)) | awk -v k=$$k '{print $$k}'); \
	  teacher=$$(echo $(NET_TEACHER_$(VARIANT)) | awk -v k=$$k '{print $$k}'); \
	  $(BUILD)/stern-datagen -variant $(VARIANT) $(NET_DATA_$(VARIANT)) $${games:+-games $$games} \
	    $${nodes:+-nodes $$nodes} -seed $$k \
	    $${prev:+-net $$prev} $${teacher:+-teacher $$teacher} \
	    $(if $(NET_THREADS),-threads $(NET_THREADS)) \
	    -o $$g.data -resume; \
	  data="$$data ../../$$g.data"; \
	  $(if $(NET_WINDOW_$(VARIANT)),w=$$(echo $(NET_WINDOW_$(VARIANT)) | awk -v k=$$k '{print (k <= NF ? $$k : $$NF)}'); \
	    data=$$(echo $$data | awk -v w=$$w '{s = ""; for (i = NF - w + 1; i <= NF; i++) if (i > 0) s = s " " $$i; print s}');) \
	  (cd tools/nnue && $(PYTHON) nnue_train.py $$data $(NET_TRAIN_$(VARIANT)) --threads 1 --out ../../$$g.nnue); \
	  prev=$$g.nnue; \
	done; cp $$prev $(or $(NET_OUT_$(VARIANT)),nets/$(VARIANT).nnue)
	$(BUILD)/stern-nnue info $(or $(NET_OUT_$(VARIANT)),nets/$(VARIANT).nnue)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/stern/docs/img $(DESTDIR)$(PREFIX)/share/doc/stern/docs/results \
	  $(DESTDIR)$(PREFIX)/share/doc/stern/tools \
	  $(DESTDIR)$(PREFIX)/share/stern/book $(DESTDIR)$(PREFIX)/share/stern/board $(DESTDIR)$(PREFIX)/share/stern/suites \
	  $(DESTDIR)$(PREFIX)/share/stern/nets
	install -m 644 $(wildcard tools/board/page/*) $(DESTDIR)$(PREFIX)/share/stern/board/
	install -m 755 $(BUILD)/stern $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard book/*.bin) $(DESTDIR)$(PREFIX)/share/stern/book/
	$(if $(wildcard nets/*.nnue),install -m 644 $(wildcard nets/*.nnue) $(DESTDIR)$(PREFIX)/share/stern/nets/)
	install -m 644 $(wildcard suites/*.epd) $(DESTDIR)$(PREFIX)/share/stern/suites/
	install -m 644 README.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/stern/
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/stern/docs/
	install -m 644 $(wildcard docs/img/*) $(DESTDIR)$(PREFIX)/share/doc/stern/docs/img/
	install -m 644 $(wildcard docs/results/*.md) $(DESTDIR)$(PREFIX)/share/doc/stern/docs/results/
	install -m 644 tools/ARENA.md $(DESTDIR)$(PREFIX)/share/doc/stern/tools/

clean:
	rm -rf build build-asan build-tsan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
