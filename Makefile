# The front door: `make run` and `make test` work on a fresh Debian 12 machine with nothing else.
#   make run [SCENE=examples/drop.json] [OUT=out/<scene>]   build (Release) and simulate a scene
#   make build                                              the `affix` command and the Python module
#                                                           (PYTHONPATH=build/release/python)
#   make test                                               build (Release + assertions) and run ctest
#   make bench | make clean
#   make test-asan                                          the unit tests under ASan + UBSan (not in `make test`)
#   make bench-peers [QUICK=1]                              affix beside MuJoCo, Bullet and ODE: docs/benchmarks.md
#   make bench-ipc [QUICK=1]                                the ipc solver on issue 12's scenes (README, Performance)
SCENE ?= examples/drop.json
OUT ?= out/$(basename $(notdir $(SCENE)))
RELEASE_DIR := build/release
TEST_DIR := build/test
ASAN_DIR := build/asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev
# ccache keys on the compile command; with paths relative to the checkout, a fresh clone reuses the
# cache of earlier builds on the same machine.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: deps build run test test-asan bench bench-peers bench-ipc clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(RELEASE_DIR) $(CMAKE_FLAGS) -DAFFIX_BUILD_TESTS=OFF >/dev/null
	@ninja -C $(RELEASE_DIR) -j $(JOBS) affix affix_python

run: build
	@$(RELEASE_DIR)/bin/affix run $(SCENE) --out $(OUT)

test: deps
	@cmake -S . -B $(TEST_DIR) $(CMAKE_FLAGS) -DAFFIX_ASSERTIONS=ON >/dev/null
	@ninja -C $(TEST_DIR) -j $(JOBS)
	@cd $(TEST_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900 -LE bench

# Everything built with AddressSanitizer and UndefinedBehaviorSanitizer (-O1 -g, assertions on: no
# NDEBUG in these flags), then every unit-test directory run under them — math, geometry, distance, ccd,
# energy, scene, io, joints, solvers, body, render, viewer, cli — but not tests/physics (minutes of
# simulation each, far slower under the sanitizers) and not the viewer's browser test (it checks the
# page's JavaScript in Chromium, not C++ memory). Any finding fails its test; tests/lsan.supp lists the
# leaks of third-party libraries (and why) that are not ours to fix.
# Nor tests/python: the module would need the sanitizer runtime preloaded into the interpreter.
ASAN_TEST_EXCLUDE_LABELS := physics|python
ASAN_TEST_EXCLUDE_TESTS := viewer_browser
test-asan: deps
	@cmake -S . -B $(ASAN_DIR) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
		-DAFFIX_SANITIZE=ON >/dev/null
	@ninja -C $(ASAN_DIR) -j $(JOBS)
	@cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		ctest -j $(JOBS) --output-on-failure --timeout 900 -LE '$(ASAN_TEST_EXCLUDE_LABELS)' -E '$(ASAN_TEST_EXCLUDE_TESTS)'

bench: deps
	@cmake -S . -B $(RELEASE_DIR) $(CMAKE_FLAGS) -DAFFIX_BUILD_BENCH=ON >/dev/null
	@ninja -C $(RELEASE_DIR) -j $(JOBS)
	@$(RELEASE_DIR)/bench/affix_bench
	@cd $(RELEASE_DIR) && ctest --output-on-failure -L bench

# The side-by-side benchmark (bench/peers/README.md): installs the peers' Debian packages, builds the
# harness and runs every scene in every engine (about 11 minutes on two cores), writing
# docs/benchmarks.md. QUICK=1: the smallest scene of each family and the Peaucellier linkage (under a minute; the `bench` ctest),
# written to out/benchmarks_quick.md so that the committed page stays the full run.
PEERS_FLAGS := $(if $(QUICK),--quick --out out/benchmarks_quick.md,--out docs/benchmarks.md)
bench-peers: deps
	@bash scripts/install-deps.sh --peers
	@cmake -S . -B $(RELEASE_DIR) $(CMAKE_FLAGS) -DAFFIX_BUILD_BENCH=ON >/dev/null
	@ninja -C $(RELEASE_DIR) -j $(JOBS) affix_peers
	@mkdir -p out
	@$(RELEASE_DIR)/bench/peers/affix_peers $(PEERS_FLAGS)

# The ipc solver on Lan 2022 Table 1, the chain curve, the ragdolls and drop_1000 (bench/bench_ipc.cpp):
# one Markdown table on stdout, one thread and two. QUICK=1: three steps of the quick scenes.
bench-ipc: deps
	@cmake -S . -B $(RELEASE_DIR) $(CMAKE_FLAGS) -DAFFIX_BUILD_BENCH=ON >/dev/null
	@ninja -C $(RELEASE_DIR) -j $(JOBS) affix_bench_ipc
	@OMP_NUM_THREADS=1 $(RELEASE_DIR)/bench/affix_bench_ipc $(if $(QUICK),--quick)

clean:
	rm -rf build
