#!/bin/sh
# Runs a Python test with the Python that configure found ($PYTHON, one
# with NumPy); exit 77 (skipped) when there is none.
if [ -z "$PYTHON" ] || [ "$PYTHON" = ":" ] || ! "$PYTHON" -c "import numpy" 2>/dev/null; then
	echo "no Python 3 with NumPy (install python3-numpy): skipped"
	exit 77
fi
# --enable-sanitizers: the library Python loads is instrumented, so the
# sanitizer runtimes go first; Python's own allocations outlive it (no leak
# check there)
if [ -n "${SANITIZER_PRELOAD:-}" ]; then
	LD_PRELOAD="$SANITIZER_PRELOAD" ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" exec "$PYTHON" "$@"
fi
exec "$PYTHON" "$@"
