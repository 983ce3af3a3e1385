# OpenBench-style build: `make EXE=name` builds the release UCI engine at that path;
# `EVALFILE=<path>` embeds that network instead of the shipped one (engine/build.rs).
EXE ?= tempo-uci
CARGO ?= cargo

.PHONY: all clean

all:
	EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" $(CARGO) build --release -p tempo-uci
	cp "$${CARGO_TARGET_DIR:-target}/release/tempo-uci" "$(EXE)"

clean:
	$(CARGO) clean -p tempo-uci
