#!/bin/sh
# The unpacker/packer reference cases (tests/vectors/pack and pack-full, copied unchanged
# from the shared reference data; see its README.md), run the way the README
# says: ttx run CASE.s --l1-in ADDR:FILE... --l1-out ADDR:LEN:FILE
# --dst-out FILE; the L1 range must equal CASE.l1 byte for byte and the
# listed Dst rows CASE.dst.  Under both engines (jit: skipped by a
# --disable-jit build).
set -u
ttx=${TTX:-$(dirname "$0")/../ttx}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
engines=interp
"$ttx" run /dev/null --engine jit >/dev/null 2>&1 && engines="interp jit"
pass=0 fail=0
for set in pack pack-full; do
dir=${TTX_VECTORS:-$(dirname "$0")/vectors}/$set
while IFS='	' read -r id family seed ninsn rows desc l1 l1in; do
	case $id in [0-9]*) ;; *) continue ;; esac
	for engine in $engines; do
		set -- --engine "$engine"
		for spec in $(echo "$l1in" | tr ',' ' '); do
			set -- "$@" --l1-in "${spec%%:*}:$dir/${spec#*:}"
		done
		if ! "$ttx" run "$dir/$id.s" "$@" --l1-out "${l1%%:*}:${l1##*:}:$tmp/out.l1" \
			--dst-out "$tmp/out.dst" 2>"$tmp/err"; then
			echo "$set $id ($engine): ttx failed: $(cat "$tmp/err")"
			fail=$((fail + 1))
			continue
		fi
		first=${rows%-*} last=${rows#*-}
		if ! cmp -s "$tmp/out.l1" "$dir/$id.l1"; then
			echo "$set $id ($engine): L1 differs: $(cmp "$tmp/out.l1" "$dir/$id.l1" | head -1)"
			fail=$((fail + 1))
		elif ! cmp -s -i $((first * 64)):$((first * 64)) -n $(((last - first + 1) * 64)) \
			"$tmp/out.dst" "$dir/$id.dst"; then
			echo "$set $id ($engine): Dst rows $rows differ"
			fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	done
done < "$dir/MANIFEST.tsv"
done
echo "pack vectors (pack, pack-full): $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
