# The two set-up commands of the README: `make demo` and `make test`.
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: build demo test lint bench
build:
	$(CARGO) build --workspace

demo: build
	./examples/demo.sh "$(TARGET_DIR)/debug"

test: build
	$(CARGO) test --workspace
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench:
	$(CARGO) build --release -p recall0
	$(CARGO) bench --bench functions
