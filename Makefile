# `make EXE=NAME` builds the engine as NAME (how OpenBench builds an engine); plain `make` builds
# ./acedrex. `NAME bench` then prints the bench signature, its last line `N nodes M nps`.

EXE ?= acedrex
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean

all:
	$(CARGO) build --release --bin acedrex
	cp $(TARGET_DIR)/release/acedrex $(EXE)

clean:
	$(CARGO) clean
