#!/bin/sh
# The last 60 lines of the log of every test that failed in the last
# `make check` (run in the build directory): CI keeps the end of its output.
#   tests/failed_logs.sh [PREFIX]
for trs in $(grep -l '^:test-result: \(FAIL\|ERROR\)' tests/*.trs 2>/dev/null); do
	echo "${1:-ci}: --- ${trs%.trs}.log (last 60 lines)"
	tail -60 "${trs%.trs}.log"
done
