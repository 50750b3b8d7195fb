#!/bin/sh
# make install into a scratch DESTDIR, then what an embedder does: build
# examples/embed.c with `pkg-config --cflags --libs ttx` against the
# installed files only, and run it (several tiles on several threads, one
# driven step by step through ttx_run's budget and the trace callback).
# The installed files: the header, libttx.so (versioned soname) and
# libttx.a, ttx.pc, the ttx binary, the man page; the libttsim interface
# library with its SoC descriptor, which a host dlopens by path and drives
# (tests/test_libttsim.c).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
fail() { echo "FAIL: $*"; exit 1; }
${MAKE:-make} -C "$TTX_BUILDDIR" install DESTDIR="$root" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; fail "make install DESTDIR=$root"; }
for f in "$includedir/ttx.h" "$libdir/libttx.so.0" "$libdir/libttx.a" "$pkgconfigdir/ttx.pc" \
	"$bindir/ttx" "$mandir/man1/ttx.1"; do
	[ -e "$root$f" ] || fail "$f is not installed"
done
soname=$(objdump -p "$root$libdir/libttx.so" 2>/dev/null | sed -n 's/^ *SONAME *//p')
[ "$soname" = libttx.so.0 ] || fail "soname is '$soname', expected libttx.so.0"
# pkg-config sees the DESTDIR tree as a sysroot: its -I and -L point into it
flags=$(PKG_CONFIG_PATH="$root$pkgconfigdir" PKG_CONFIG_SYSROOT_DIR="$root" pkg-config --cflags --libs ttx) ||
	fail "pkg-config ttx"
case "$flags" in *"$root"*) ;; *) fail "pkg-config flags do not point into $root: $flags" ;; esac
version=$(PKG_CONFIG_PATH="$root$pkgconfigdir" pkg-config --modversion ttx)
${CC:-cc} -std=c11 -pedantic -Wall -Wextra -Werror ${SANITIZER_FLAGS:-} -o "$tmp/embed" "$TTX_SRCDIR/examples/embed.c" \
	$flags -lpthread ||
	fail "building examples/embed.c with: $flags"
LD_LIBRARY_PATH="$root$libdir" "$tmp/embed" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "examples/embed.c"; }
grep -q "libttx $version (header $version)" "$tmp/out" || { cat "$tmp/out"; fail "version: pkg-config says $version"; }
grep -q "on every tile: yes" "$tmp/out" || { cat "$tmp/out"; fail "tiles disagree"; }
grep -q "23 instructions traced" "$tmp/out" || { cat "$tmp/out"; fail "stepped tile"; }
# the libttsim interface library, loaded by path from the installed tree
[ -f "$root$pkglibdir/libttsim.so" ] && [ -f "$root$pkglibdir/soc_descriptor.yaml" ] ||
	fail "libttsim.so and soc_descriptor.yaml are not in $pkglibdir"
exports=$(nm -D --defined-only "$root$pkglibdir/libttsim.so" | awk '{ print $3 }' | sort | tr '\n' ' ')
[ "$exports" = "libttsim_clock libttsim_exit libttsim_init libttsim_pci_config_rd32 libttsim_pci_config_wr32 libttsim_pci_mem_rd_bytes libttsim_pci_mem_wr_bytes libttsim_set_pci_dma_mem_callbacks libttsim_tile_rd_bytes libttsim_tile_wr_bytes " ] ||
	fail "libttsim.so exports: $exports"
if [ -f "$TTX_BUILDDIR/tests/riscv/pusher.trisc0.elf" ]; then
	LD_PRELOAD="${SANITIZER_PRELOAD:-${LD_PRELOAD:-}}" ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		"$TTX_BUILDDIR/tests/test_libttsim" "$root$pkglibdir/libttsim.so" "$TTX_BUILDDIR/tests/riscv" \
		"$TTX_SRCDIR/tests/vectors/fpu" >"$tmp/sim.out" 2>&1 || { cat "$tmp/sim.out"; fail "the installed libttsim.so"; }
fi
"$root$bindir/ttx" --version >/dev/null 2>&1 || LD_LIBRARY_PATH="$root$libdir" "$root$bindir/ttx" --version >/dev/null ||
	fail "the installed ttx does not run"
# the Python package: where the configured Python searches (Debian's looks in
# dist-packages, not site-packages), and importable from the installed tree
if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != ":" ] && [ -n "${pythondir:-}" ]; then
	[ -f "$root$pythondir/ttx/__init__.py" ] || fail "the Python package is not in $pythondir"
	case "$prefix" in
	/usr | /usr/local)
		"$PYTHON" -c "import sys; sys.exit('$pythondir' not in sys.path)" ||
			fail "make install put the package in $pythondir, which $PYTHON does not search" ;;
	esac
	# (--enable-sanitizers: the runtimes go first, as tests/python.sh does)
	(cd "$tmp" && LD_PRELOAD="${SANITIZER_PRELOAD:-${LD_PRELOAD:-}}" \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		TTX_LIBRARY="$root$libdir/libttx.so.0" PYTHONPATH="$root$pythondir" "$PYTHON" -c \
		"import ttx, ttx.tensil, numpy; assert ttx.version() == '$version'; print(ttx.relu(numpy.array([-1.0, 2.0], numpy.float32)))") \
		>"$tmp/py.out" 2>&1 || { cat "$tmp/py.out"; fail "import ttx from the installed tree"; }
fi
cat "$tmp/out"
echo "install test passed (DESTDIR, pkg-config $version)"
