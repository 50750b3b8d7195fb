#!/bin/sh
# ttx batch under MPI: `mpirun -n 2 ttx batch JOBS` against the same jobs
# in one process, from two working directories (the jobs' relative output
# paths land in each): stdout, the job messages (JOBS:LINE: ...) and every
# output file equal byte for byte, and the exit code too.  Skipped (77)
# without MPI (configure --with-mpi, Open MPI's mpirun).
set -u
[ -n "${MPIRUN:-}" ] && "$TTX" --version >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# mpirun refuses root unless told (CI runs as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
printf 'SFPLOADI 0, 0, 0x3F80\nSFPLOADI 1, 0, 0x4000\nSFPMAD 0, 1, 0, 2, 0\nSFPSTORE 2, 3, 0, 0\n' >"$tmp/a.s"
printf 'SFPLOADI 0, 2, 7\nSFPIADD 5, 0, 0, 5\n' >"$tmp/b.s"
printf 'SFPPOPC 0, 0, 0, 0\n' >"$tmp/fault.s"
{
	i=0
	while [ $i -lt 9 ]; do
		echo "run $tmp/a.s --dst-out a$i.dst --engine interp"
		echo "run $tmp/b.s --lreg-out b$i.lreg"
		i=$((i+1))
	done
	echo "run $tmp/fault.s"
	echo "op --list"
	echo "run 'unterminated"
} >"$tmp/jobs.txt"
mkdir "$tmp/one" "$tmp/mpi"
(cd "$tmp/one" && "$TTX" batch "$tmp/jobs.txt" --jobs 2 >../one.out 2>../one.err); one=$?
(cd "$tmp/mpi" && "$MPIRUN" -n 2 "$TTX" batch "$tmp/jobs.txt" --jobs 1 >../mpi.out 2>../mpi.err); mpi=$?
[ "$one" = 1 ] || fail "single process: exit $one, expected 1"
[ "$mpi" = "$one" ] || { cat "$tmp/mpi.err"; fail "mpirun: exit $mpi, single process $one"; }
cmp -s "$tmp/one.out" "$tmp/mpi.out" || fail "stdout differs"
grep "^$tmp/jobs.txt:" "$tmp/one.err" >"$tmp/one.msg"
grep "^$tmp/jobs.txt:" "$tmp/mpi.err" >"$tmp/mpi.msg"
[ -s "$tmp/one.msg" ] && cmp -s "$tmp/one.msg" "$tmp/mpi.msg" || { cat "$tmp/one.msg" "$tmp/mpi.msg"; fail "messages differ"; }
grep -q "on 2 ranks" "$tmp/mpi.err" || { cat "$tmp/mpi.err"; fail "the summary does not name 2 ranks"; }
n=0
for f in "$tmp/one"/*; do
	cmp -s "$f" "$tmp/mpi/${f##*/}" || fail "${f##*/} differs"
	n=$((n+1))
done
[ "$n" = 18 ] || fail "$n output files, expected 18"
echo "mpirun -n 2 ttx batch = one process: stdout, messages and $n output files"
