#!/bin/sh
# Unpacks (does not install) Debian 12's arm64 libraries that an AArch64
# build of ttx links and tests against into DIR: LLVM 14 for the JIT, Check,
# json-c, libyaml, SIMDe, the C library, and Python with NumPy (to run the
# Python tests under qemu too).  debootstrap's first stage only
# (no chroot, no arm64 code runs), then every package it fetched unpacked
# with dpkg -x.  docs/portability.md; used by `make check-aarch64`.
#   tests/aarch64/sysroot.sh DIR [MIRROR]
set -eu
dir=${1:?usage: sysroot.sh DIR [MIRROR]}
mirror=${2:-http://deb.debian.org/debian}
if [ -f "$dir/.ttx-sysroot" ]; then
	echo "sysroot.sh: $dir is ready"
	exit 0
fi
command -v debootstrap >/dev/null || { echo "sysroot.sh: debootstrap is missing (apt-get install debootstrap)" >&2; exit 77; }
# (a first try that stopped half-way: start again)
[ -d "$dir/debootstrap" ] && rm -rf "$dir"
mkdir -p "$dir"
debootstrap --foreign --arch=arm64 --variant=minbase \
	--include=libc6-dev,llvm-14-dev,check,libjson-c-dev,libyaml-dev,libsimde-dev,zlib1g-dev,libzstd-dev,libtinfo-dev,libffi-dev,libxml2-dev,libedit-dev,python3-numpy \
	bookworm "$dir" "$mirror"
for deb in "$dir"/var/cache/apt/archives/*.deb; do
	dpkg -x "$deb" "$dir"
done
# absolute symlinks of the unpacked tree (libfoo.so -> /lib/...) must
# point into it when the cross linker follows them
find "$dir/usr/lib" "$dir/lib" -type l 2>/dev/null | while read -r link; do
	target=$(readlink "$link")
	case $target in
	/*) [ -e "$dir$target" ] && ln -sfn "$dir$target" "$link" ;;
	esac
done
# what the packages' install scripts would have set up: the reference
# BLAS and LAPACK that NumPy loads (Debian's alternatives)
for lib in blas lapack; do
	d="$dir/usr/lib/aarch64-linux-gnu"
	[ -e "$d/lib$lib.so.3" ] || ln -s "$lib/lib$lib.so.3" "$d/lib$lib.so.3"
done
touch "$dir/.ttx-sysroot"
echo "sysroot.sh: arm64 sysroot in $dir"
