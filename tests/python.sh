#!/bin/sh
# Runs a Python test with the Python that configure found ($PYTHON, one
# with NumPy); exit 77 (skipped) when there is none.
if [ -z "$PYTHON" ] || [ "$PYTHON" = ":" ] || ! "$PYTHON" -c "import numpy" 2>/dev/null; then
	echo "no Python 3 with NumPy (install python3-numpy): skipped"
	exit 77
fi
exec "$PYTHON" "$@"
