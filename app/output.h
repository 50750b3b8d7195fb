/* The files the ttx command writes (docs/batch.md "Outputs").
 *
 * A regular file, or a name that does not exist yet, is written to a
 * temporary file in the same directory (a short unique name, so a long
 * output name still fits) and renamed over it by output_commit: it appears
 * whole or not at all, and output_discard leaves nothing behind.  A symlink
 * is followed to the file it names.  Anything else that exists (a
 * character device such as /dev/null or /dev/full, a FIFO, a socket) and
 * "-" (the command's standard output) is written directly.  Every write
 * and the final close are checked. */
#ifndef TTX_APP_OUTPUT_H
#define TTX_APP_OUTPUT_H

#include <stdio.h>

struct output {
	const char *path;   /* as the user named it (messages) */
	char *target;       /* the file a commit replaces (symlinks followed) */
	char *tmp;          /* the temporary file; NULL when written directly */
	FILE *f;
	int to_stdout;
};

/* Open path for writing ("-": stdout).  0, or -1 after a message on err. */
int output_open(struct output *o, const char *path, FILE *stdout_stream, FILE *err);
/* Flush and close (checked), then rename the temporary file into place.
   0, or -1 after a message; either way the output is finished. */
int output_commit(struct output *o, FILE *err);
/* Close and remove the temporary file: nothing is left of the output
   (what was written directly stays written). */
void output_discard(struct output *o);
/* Write len bytes; 0, or -1 (reported at the commit). */
int output_write(struct output *o, const void *data, size_t len);

/* The file a path will write, for spotting two outputs that would be the
   same file (ttx batch): "dev:ino" of what exists (symlinks followed), else
   the absolute path of the name; NULL for "-" and for things that are not
   regular files (devices, FIFOs), which may be written twice.  Free it. */
char *output_identity(const char *path);

#endif
