#!/bin/sh
# The ttx CLI on good and bad input: messages and exit codes.
set -u
TTX=${TTX:-./ttx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name expected-exit command...
	name=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	if [ "$got" = "$want" ]; then pass=$((pass+1)); else
		fail=$((fail+1)); echo "FAIL: $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
printf 'NOP\nNOP\n' > "$tmp/ok.s"
check "nop program runs" 0 "$TTX" run "$tmp/ok.s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
