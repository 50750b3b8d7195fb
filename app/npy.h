/* NumPy .npy files for the command line (docs/ops.md): read as float32,
 * write float32.  https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html */
#ifndef TTX_NPY_H
#define TTX_NPY_H

#include <stddef.h>

struct npy {
	float *data;           /* C order */
	size_t shape[3];
	int ndim;              /* 1, 2 or 3 */
	char dtype[8];         /* as the file names it, e.g. "<f4" */
};

/* Read an .npy of float32, float16, float64, int8, uint8, int16 or int32 in
   C order with 1 to 3 dimensions, converted to float32.  0, or -1 with a
   message naming the file in err. */
int npy_read(const char *path, struct npy *out, char *err, size_t errlen);
/* Parse an .npy image already in memory (the same checks). */
int npy_parse(const unsigned char *buf, size_t len, const char *name, struct npy *out, char *err, size_t errlen);
/* Write float32 data of the given shape; the file appears whole or not at
   all (written beside it, then renamed). */
int npy_write(const char *path, const float *data, const size_t *shape, int ndim, char *err, size_t errlen);
void npy_free(struct npy *a);

#endif
