#!/bin/sh
# `make check-aarch64`: ttx cross-built for aarch64-linux-gnu with Debian's
# cross compiler, LLVM's AArch64 JIT included, and its test suite run under
# qemu-aarch64 (docs/portability.md).
#   tests/aarch64/check.sh SRCDIR BUILDDIR [SYSROOT]
# BUILDDIR gets a copy of the sources built there (and the sysroot, unless given): an arm64 Debian 12
# unpacked by tests/aarch64/sysroot.sh.  Needs gcc-aarch64-linux-gnu,
# qemu-user and debootstrap (installed here when missing and run as root),
# and qemu-aarch64 registered with binfmt_misc so that the tests' scripts
# can run the arm64 programs (registered here when missing, as root).
# TTX_AARCH64_TESTS="tests/test_x ..." runs only those tests.  Exit 77
# when this machine cannot run them (tools missing and not root, no
# binfmt_misc); otherwise make check's status.
set -eu
src=$(cd "${1:?usage: check.sh SRCDIR BUILDDIR [SYSROOT]}" && pwd)
build=${2:?usage: check.sh SRCDIR BUILDDIR [SYSROOT]}
mkdir -p "$build"
build=$(cd "$build" && pwd)
sysroot=${3:-$build/sysroot}
jobs=${JOBS:-2}
say() { echo "check-aarch64: $*"; }

need=
command -v aarch64-linux-gnu-gcc >/dev/null || need="$need gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
command -v qemu-aarch64 >/dev/null || need="$need qemu-user"
command -v debootstrap >/dev/null || need="$need debootstrap"
if [ -n "$need" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing$need"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need >/dev/null
	else
		say "missing:$need (apt-get install$need)" >&2
		exit 77
	fi
fi

"$src/tests/aarch64/sysroot.sh" "$sysroot" ||
	{ say "no arm64 sysroot: Debian's arm64 packages could not be fetched" >&2; exit 77; }

# binfmt_misc: the tests' shell scripts run arm64 programs by name
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
	[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
	if [ -w /proc/sys/fs/binfmt_misc/register ]; then
		printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$(command -v qemu-aarch64)"':' \
			> /proc/sys/fs/binfmt_misc/register
	else
		say "cannot register qemu-aarch64 with binfmt_misc (run as root, or install qemu-user-binfmt)" >&2
		exit 77
	fi
fi
export QEMU_LD_PREFIX="$sysroot"

# llvm-config: the arm64 one, run under qemu, its paths moved into the sysroot
cat > "$build/llvm-config" <<EOF
#!/bin/sh
qemu-aarch64 -L "$sysroot" "$sysroot/usr/lib/llvm-14/bin/llvm-config" "\$@" |
	sed -e 's#\\(^\\| \\|-I\\|-L\\)/usr/#\\1$sysroot/usr/#g'
EOF
chmod +x "$build/llvm-config"

# a copy of the sources (the source tree may be configured for the host,
# which rules out building beside it); mtimes kept, so make redoes only
# what changed
mkdir -p "$build/tree"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) |
		tar -xf - -C "$build/tree"
else
	(cd "$src" && tar -cf - --exclude=./.git .) | tar -xf - -C "$build/tree"
fi
cd "$build/tree"
[ -x configure ] || autoreconf -fi >/dev/null 2>&1
# (prefix /opt/ttx: the sysroot's Python, run from another place, searches
# no /usr/local for packages, which test_install checks for those prefixes)
set -- --host=aarch64-linux-gnu --disable-native --prefix=/opt/ttx \
	CC="aarch64-linux-gnu-gcc --sysroot=$sysroot" CFLAGS="-O2 -g" \
	PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig" \
	PKG_CONFIG_SYSROOT_DIR="$sysroot" --with-llvm-config="$build/llvm-config" PYTHON="$sysroot/usr/bin/python3" \
	LDFLAGS="-Wl,-rpath-link,$sysroot/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,$sysroot/lib/aarch64-linux-gnu"
# configured again when these arguments change
if [ ! -f Makefile ] || [ "$(cat .ttx-configure 2>/dev/null)" != "$*" ]; then
	# (a copy of a tree built for the host, outside git: its objects go)
	[ -f Makefile ] && [ ! -f .ttx-configure ] && { make distclean >/dev/null 2>&1 || true; }
	[ -x configure ] || autoreconf -fi >/dev/null 2>&1
	say "configuring in $build/tree"
	./configure -q "$@"
	echo "$*" > .ttx-configure
fi
# qemu runs code 10-50x slower (LLVM's code generation the most): Check's
# time limits stretched, the two differential fuzzers shorter (2,000 and
# 300 programs on the host)
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-40} TTX_TEST_TIME_SCALE=${TTX_TEST_TIME_SCALE:-40}
# qemu-user fails its own assertions when a process with threads forks and
# the child starts threads: test_chip leaves that case out
export TTX_TEST_NO_THREADED_FORK=1
export TTX_JIT_FUZZ_PROGRAMS=${TTX_JIT_FUZZ_PROGRAMS:-200}
export TTX_TCU_FUZZ_PROGRAMS=${TTX_TCU_FUZZ_PROGRAMS:-60}
say "building"
make -j"$jobs" >build.log 2>&1 || { tail -30 build.log; exit 1; }
say "testing under qemu-aarch64 (the Python tests with the sysroot's arm64 Python)"
tests=${TTX_AARCH64_TESTS:+TESTS=$TTX_AARCH64_TESTS}
status=0
make -j"$jobs" check ${tests:+"$tests"} || status=$?
[ "$status" = 0 ] && exit 0
# The failed tests' logs, then those tests once more.  Here threaded
# guests (the JIT's compile threads, tiles on many host threads) run under
# qemu-user's own translation and signal handling; one CI run had a
# test_jit failure that 14 runs here did not repeat.  So a failure that
# does not repeat is shown, with its log, and not counted; one that
# repeats fails the run (docs/portability.md).
sh tests/failed_logs.sh check-aarch64
say "running the failed tests again"
if make -j"$jobs" recheck ${tests:+"$tests"}; then
	say "the failures above did not repeat: shown, not counted"
	exit 0
fi
sh tests/failed_logs.sh check-aarch64
exit 1
