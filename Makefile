# The two set-up commands of the README are `make demo` and `make test`.
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# The tests drive the CLI through test hooks (cli/src/fault.rs) no other build has.
TEST_FEATURES := --features recall-cli/test-hooks

.PHONY: build hosts demo test test-mcp bench bench-scale bench-quick fuzz
build:
	$(CARGO) build --workspace

# The sqlite3 shell, /usr/bin/python3, rustfmt and clippy, installed when missing.
hosts:
	./tests/hosts/install.sh

demo: hosts build
	./examples/demo.sh "$(TARGET_DIR)/debug"

test: hosts
	$(CARGO) build --workspace $(TEST_FEATURES)
	$(CARGO) test --workspace $(TEST_FEATURES)
	$(MAKE) test-mcp
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets $(TEST_FEATURES) -- -D warnings
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# recall mcp with the official MCP Python SDK (a fresh virtual environment, mcp from PyPI).
test-mcp:
	./tests/mcp/run.sh "$(TARGET_DIR)/debug/recall"

# Per-function criterion benchmarks and recall_score over 1,000,000 rows.
bench:
	$(CARGO) build --release -p recall0
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

fuzz:
	./fuzz/run.sh 120
