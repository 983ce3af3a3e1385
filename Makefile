# OpenBench-style build: `make EXE=name` builds the release UCI engine at that path;
# `EVALFILE=<path>` embeds that network instead of the shipped one (engine/build.rs).
# `TUNE=1` builds with the search parameters as UCI options and the `spsa` command (SPSA
# tuning: docs/openbench.md).
EXE ?= tempo-uci
CARGO ?= cargo
# OpenBench passes no such variable: a branch for an OpenBench SPSA run sets `TUNE ?= 1` here.
TUNE ?=

.PHONY: all clean

all:
	EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" $(CARGO) build --release -p tempo-uci $(if $(TUNE),--features tune)
	cp "$${CARGO_TARGET_DIR:-target}/release/tempo-uci" "$(EXE)"

clean:
	$(CARGO) clean -p tempo-uci
