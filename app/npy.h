/* NumPy .npy files for the command line (docs/ops.md): read as float32,
 * write float32.  https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html */
#ifndef TTX_NPY_H
#define TTX_NPY_H

#include <stddef.h>
#include <stdio.h>

struct npy {
	float *data;           /* C order */
	size_t shape[3];
	int ndim;              /* 1, 2 or 3 */
	char dtype[8];         /* as the file names it, e.g. "<f4" */
};

/* Read an .npy of float32, float16, float64, int8, uint8, int16 or int32 in
   C order with 1 to 3 dimensions, converted to float32 ("-": standard
   input).  The header is read and checked first, then exactly the data it
   declares; a regular file whose size disagrees is refused before any
   data is read.  0, or -1 with a message naming the file in err. */
int npy_read(const char *path, struct npy *out, char *err, size_t errlen);
/* Parse an .npy image already in memory (the same reader). */
int npy_parse(const unsigned char *buf, size_t len, const char *name, struct npy *out, char *err, size_t errlen);
/* Write float32 data of the given shape to f (an output, app/output.h):
   0, or -1 on a write error. */
int npy_write(FILE *f, const float *data, const size_t *shape, int ndim);
void npy_free(struct npy *a);

#endif
