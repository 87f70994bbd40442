# The front door: `make run` and `make test` work on a fresh Debian 12 machine with nothing else.
#   make run [SCENE=examples/drop.json] [OUT=out/<scene>]   build (Release) and simulate a scene
#   make test                                               build (Release + assertions) and run ctest
#   make build | make bench | make clean
SCENE ?= examples/drop.json
OUT ?= out/$(basename $(notdir $(SCENE)))
RELEASE_DIR := build/release
TEST_DIR := build/test
JOBS ?= $(shell nproc)
CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev
# ccache keys on the compile command; with paths relative to the checkout, a fresh clone reuses the
# cache of earlier builds on the same machine.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: deps build run test bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(RELEASE_DIR) $(CMAKE_FLAGS) -DAFFIX_BUILD_TESTS=OFF >/dev/null
	@ninja -C $(RELEASE_DIR) -j $(JOBS) affix

run: build
	@$(RELEASE_DIR)/bin/affix run $(SCENE) --out $(OUT)

test: deps
	@cmake -S . -B $(TEST_DIR) $(CMAKE_FLAGS) -DAFFIX_ASSERTIONS=ON >/dev/null
	@ninja -C $(TEST_DIR) -j $(JOBS)
	@cd $(TEST_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900

bench: deps
	@cmake -S . -B $(RELEASE_DIR) $(CMAKE_FLAGS) -DAFFIX_BUILD_BENCH=ON >/dev/null
	@ninja -C $(RELEASE_DIR) -j $(JOBS)
	@$(RELEASE_DIR)/bench/affix_bench

clean:
	rm -rf build
