#!/bin/sh
# The floors of docs/architecture.md: no file includes a header of a floor
# above its own, and no floor's library needs a symbol that only a floor
# above it defines.  Every wrong-way edge is listed.
#   floor 1 src/, 2 interp/, 3 jit/, 4 chip/, top app/; tensil/ beside them
#   (it may use src/ and jit/).
set -u
SRCDIR=${TTX_SRCDIR:-$(dirname "$0")/..}
BUILDDIR=${TTX_BUILDDIR:-.}
NM=${NM:-nm}
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# may_use FLOOR OTHER: succeeds when FLOOR may include or call OTHER
may_use() {
	case "$1:$2" in
	src:src) return 0 ;;
	interp:src|interp:interp) return 0 ;;
	jit:src|jit:interp|jit:jit) return 0 ;;
	chip:src|chip:interp|chip:jit|chip:chip) return 0 ;;
	tensil:src|tensil:jit|tensil:tensil) return 0 ;;
	app:*) return 0 ;;
	esac
	return 1
}
floors="src interp jit chip tensil app"

# ---- #include lines ----
# every header and table of a floor, by name (a name must be unique)
for f in $floors; do
	[ -d "$SRCDIR/$f" ] || continue
	for h in "$SRCDIR/$f"/*.h "$SRCDIR/$f"/*.def; do
		[ -f "$h" ] && echo "$(basename "$h") $f"
	done
done | sort > "$tmp/headers"
dups=$(awk '{ print $1 }' "$tmp/headers" | uniq -d)
if [ -n "$dups" ]; then
	echo "test_floors: header names used on two floors (an include would be ambiguous): $dups"
	status=1
fi
nfiles=0
for f in $floors; do
	[ -d "$SRCDIR/$f" ] || continue
	for file in "$SRCDIR/$f"/*.c "$SRCDIR/$f"/*.h; do
		[ -f "$file" ] || continue
		nfiles=$((nfiles + 1))
		# #include "name" (system headers <...> are not the floors')
		sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$file" | while read -r inc; do
			to=$(awk -v n="$(basename "$inc")" '$1 == n { print $2 }' "$tmp/headers")
			[ -n "$to" ] || continue   # config.h (generated), a header of the build
			if ! may_use "$f" "$to"; then
				echo "test_floors: $f/$(basename "$file") includes $to/$(basename "$inc"): $f may not include $to"
				echo bad >> "$tmp/bad"
			fi
		done
	done
done
[ -f "$tmp/bad" ] && status=1
if [ "$nfiles" -lt 40 ]; then
	echo "test_floors: only $nfiles source files found under $SRCDIR (wrong TTX_SRCDIR?)"
	status=1
fi

# ---- symbols: what each floor's library leaves undefined ----
lib() { echo "$BUILDDIR/.libs/libttx-$1.a"; }
core_floor() { case "$1" in src) echo core ;; *) echo "$1" ;; esac; }
for f in $floors; do
	a=$(lib "$(core_floor "$f")")
	[ -f "$a" ] || continue
	$NM -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/def.$f"
	$NM -g --undefined-only "$a" 2>/dev/null | awk 'NF >= 2 && $1 == "U" { print $2 }' | sort -u > "$tmp/undef.$f"
done
for f in src interp jit; do
	if [ ! -f "$tmp/def.$f" ]; then
		echo "test_floors: no library for floor $f ($(lib "$(core_floor "$f")")): build first"
		status=1
	fi
done
for f in $floors; do
	[ -f "$tmp/undef.$f" ] || continue
	for o in $floors; do
		[ "$o" != "$f" ] && [ -f "$tmp/def.$o" ] || continue
		may_use "$f" "$o" && continue
		comm -12 "$tmp/undef.$f" "$tmp/def.$o" | while read -r sym; do
			echo "test_floors: floor $f uses $sym, defined on floor $o"
			echo bad >> "$tmp/badsym"
		done
	done
done
[ -f "$tmp/badsym" ] && status=1
[ $status = 0 ] && echo "test_floors: $nfiles files, every include and symbol points down"
exit $status
