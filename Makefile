# OpenBench-style build: `make EXE=name` builds the release UCI engine at that path.
EXE ?= tempo-uci
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release -p tempo-uci
	cp "$${CARGO_TARGET_DIR:-target}/release/tempo-uci" "$(EXE)"

clean:
	$(CARGO) clean -p tempo-uci
