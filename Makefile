# Builds todo and installs it with its second name todo.sh, the shell completions and the
# manual pages.
#
#   make                      build in release mode
#   make install              build, then install under PREFIX (default /usr/local)
#   make uninstall            remove exactly what install put there
#   make completions          regenerate Completions/ from the command table
#   make install-files        install an already built binary (BUILD_DIR) without building
#
# DESTDIR is put in front of every installed path, for packaging.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
# A fully static executable (the Swift runtime, readline, terminfo and the C library linked
# in) starts in about a third of the time of one the dynamic loader must assemble: no
# library search, no symbol look-ups (see "Start-up" in BENCHMARKS.md). It needs the static
# libraries of libreadline-dev and libncurses-dev. glibc still loads its name-service modules
# at run time for a `~user` path in the shell. SWIFT_FLAGS='-c release --static-swift-stdlib'
# builds the former, dynamically linked way.
SWIFT_FLAGS ?= -c release -Xswiftc -static-executable -Xlinker -ltinfo
# The CalDAV helper links libcurl and its TLS libraries, which have no static archives to
# link into a static executable: it is linked the ordinary way, with Swift's own libraries in.
CALDAV_SWIFT_FLAGS ?= -c release --static-swift-stdlib
# Where the built binary is (SwiftPM links .build/release to the release products).
BUILD_DIR ?= .build/release

BINDIR := $(PREFIX)/bin
DATADIR := $(PREFIX)/share
MAN1DIR := $(DATADIR)/man/man1
MAN5DIR := $(DATADIR)/man/man5
BASHDIR := $(DATADIR)/bash-completion/completions
ZSHDIR := $(DATADIR)/zsh/site-functions
FISHDIR := $(DATADIR)/fish/vendor_completions.d

INSTALLED := \
	$(BINDIR)/todo \
	$(BINDIR)/todo.sh \
	$(BINDIR)/todo-caldav \
	$(BASHDIR)/todo \
	$(BASHDIR)/todo.sh \
	$(ZSHDIR)/_todo \
	$(FISHDIR)/todo.fish \
	$(FISHDIR)/todo.sh.fish \
	$(MAN1DIR)/todo.1 \
	$(MAN1DIR)/todo.sh.1 \
	$(MAN5DIR)/todo.txt.5 \
	$(MAN5DIR)/todo-config.5

.PHONY: all build install install-files uninstall completions check

all: build

build:
	$(SWIFT) build $(SWIFT_FLAGS) --product todo
	$(SWIFT) build $(CALDAV_SWIFT_FLAGS) --product todo-caldav

install: build
	$(MAKE) install-files

install-files:
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(BASHDIR)" "$(DESTDIR)$(ZSHDIR)" \
		"$(DESTDIR)$(FISHDIR)" "$(DESTDIR)$(MAN1DIR)" "$(DESTDIR)$(MAN5DIR)"
	install -m 755 "$(BUILD_DIR)/todo" "$(DESTDIR)$(BINDIR)/todo"
	ln -sf todo "$(DESTDIR)$(BINDIR)/todo.sh"
	install -m 755 "$(BUILD_DIR)/todo-caldav" "$(DESTDIR)$(BINDIR)/todo-caldav"
	install -m 644 Completions/todo.bash "$(DESTDIR)$(BASHDIR)/todo"
	install -m 644 Completions/todo.bash "$(DESTDIR)$(BASHDIR)/todo.sh"
	install -m 644 Completions/_todo "$(DESTDIR)$(ZSHDIR)/_todo"
	install -m 644 Completions/todo.fish "$(DESTDIR)$(FISHDIR)/todo.fish"
	install -m 644 Completions/todo.fish "$(DESTDIR)$(FISHDIR)/todo.sh.fish"
	install -m 644 man/todo.1 "$(DESTDIR)$(MAN1DIR)/todo.1"
	ln -sf todo.1 "$(DESTDIR)$(MAN1DIR)/todo.sh.1"
	install -m 644 man/todo.txt.5 "$(DESTDIR)$(MAN5DIR)/todo.txt.5"
	install -m 644 man/todo-config.5 "$(DESTDIR)$(MAN5DIR)/todo-config.5"

uninstall:
	rm -f $(foreach file,$(INSTALLED),"$(DESTDIR)$(file)")

completions: build
	"$(BUILD_DIR)/todo" completions bash > Completions/todo.bash
	"$(BUILD_DIR)/todo" completions zsh > Completions/_todo
	"$(BUILD_DIR)/todo" completions fish > Completions/todo.fish

check:
	$(SWIFT) test
