# The two set-up commands of the README are `make demo` and `make test`.
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: build hosts demo test bench bench-scale bench-quick fuzz
build:
	$(CARGO) build --workspace

# The sqlite3 shell, /usr/bin/python3, rustfmt and clippy, installed when missing.
hosts:
	./tests/hosts/install.sh

demo: hosts build
	./examples/demo.sh "$(TARGET_DIR)/debug"

test: hosts build
	$(CARGO) test --workspace
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# Per-function criterion benchmarks and recall_score over 1,000,000 rows.
bench:
	$(CARGO) build --release -p recall0
	$(CARGO) bench --bench functions

# The scale benchmark: 10k to 1M items (builds cached in target/scale/).
bench-scale:
	$(CARGO) build --release -p recall-cli -p recall0
	$(CARGO) bench --bench scale

# The scale benchmark on 2,000 items: checks that it still runs (CI).
bench-quick:
	$(CARGO) build --release -p recall-cli -p recall0
	$(CARGO) bench --bench scale -- --quick

fuzz:
	./fuzz/run.sh 120
