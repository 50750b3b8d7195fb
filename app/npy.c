/* NumPy .npy reading and writing (npy.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"

static int err_at(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int err_at(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static float half_to_float(uint16_t h)
{
	int e = (h >> 10) & 0x1F, m = h & 0x3FF;
	float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), e - 25);
	return h & 0x8000 ? -v : v;
}

/* The value of `key` in the header dict: a pointer just past "'key':". */
static const char *dict_value(const char *h, const char *key)
{
	char pat[32];
	snprintf(pat, sizeof(pat), "'%s'", key);
	const char *p = strstr(h, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

/* The most header ttx reads (version 2 and 3 headers may be up to 4 GiB;
   real ones are a few hundred bytes, padding aside). */
#define MAX_HEADER (16u << 20)

/* The header dict: dtype, item size, shape, element count.  0, or -1 with
   the message. */
static int parse_header(char *h, size_t hlen, const char *name, struct npy *out, size_t *item_out, size_t *n_out,
                        char *err, size_t errlen)
{
	if (strlen(h) != hlen)
		return err_at(err, errlen, "%s: corrupt header (NUL byte)", name);
	const char *d = dict_value(h, "descr"), *fo = dict_value(h, "fortran_order"), *sh = dict_value(h, "shape");
	if (!d || !fo || !sh || h[0] != '{')
		return err_at(err, errlen, "%s: corrupt header (no descr, fortran_order or shape)", name);
	if (strncmp(fo, "True", 4) == 0)
		return err_at(err, errlen, "%s: Fortran order is not supported (save with np.ascontiguousarray)", name);
	if (strncmp(fo, "False", 5) != 0)
		return err_at(err, errlen, "%s: corrupt header (fortran_order)", name);
	if (*d != '\'' || !strchr(d + 1, '\'') || strchr(d + 1, '\'') - d - 1 >= (long)sizeof(out->dtype))
		return err_at(err, errlen, "%s: corrupt header (descr)", name);
	memcpy(out->dtype, d + 1, (size_t)(strchr(d + 1, '\'') - d - 1));
	static const struct { const char *name; size_t size; } types[] = {
		{ "<f4", 4 }, { "<f2", 2 }, { "<f8", 8 }, { "|i1", 1 }, { "|u1", 1 }, { "<i2", 2 }, { "<i4", 4 },
	};
	size_t item = 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(out->dtype, types[i].name) == 0)
			item = types[i].size;
	if (!item)
		return err_at(err, errlen, "%s: dtype '%s' is not supported (float32, float16, float64, int8, uint8, "
		              "int16 or int32, little-endian)", name, out->dtype);
	const char *close = *sh == '(' ? strchr(sh, ')') : NULL;
	if (!close)
		return err_at(err, errlen, "%s: corrupt header (shape)", name);
	int shape_len = (int)(close - sh + 1);   /* for messages: the tuple alone */
	const char *p = sh + 1;
	size_t n = 1;
	int nd = 0;
	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == ')')
			break;
		char *e;
		errno = 0;
		unsigned long long v = strtoull(p, &e, 10);
		if (e == p || errno || *p == '-')
			return err_at(err, errlen, "%s: corrupt header (shape)", name);
		if (nd == 3)
			return err_at(err, errlen, "%s: shape %.*s: arrays of more than 3 dimensions are not supported",
			              name, shape_len, sh);
		if (v == 0)
			return err_at(err, errlen, "%s: shape %.*s: the array is empty", name, shape_len, sh);
		if (v > ((size_t)1 << 31) || n > ((size_t)1 << 34) / v)
			return err_at(err, errlen, "%s: shape %.*s: the array is too large", name, shape_len, sh);
		out->shape[nd++] = (size_t)v;
		n *= (size_t)v;
		p = e;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
	}
	if (nd == 0)
		return err_at(err, errlen, "%s: a 0-dimensional array (a scalar) is not supported", name);
	out->ndim = nd;
	*item_out = item;
	*n_out = n;
	return 0;
}

static float to_float(const unsigned char *q, size_t item, char kind)
{
	uint64_t u = 0;
	for (size_t k = 0; k < item; k++)
		u |= (uint64_t)q[k] << (8 * k);
	uint32_t u32 = (uint32_t)u;
	float v;
	double dv;
	switch (kind == 'f' ? item : 16 + item + (kind == 'u' ? 8 : 0)) {
	case 4: memcpy(&v, &u32, 4); return v;
	case 2: return half_to_float((uint16_t)u);
	case 8: memcpy(&dv, &u, 8); return (float)dv;
	case 17: return (float)(int8_t)u;
	case 25: return (float)(uint8_t)u;
	case 18: return (float)(int16_t)u;
	default: return (float)(int32_t)u32;
	}
}

/* Read an .npy from f: the header first, then exactly the data it declares
   (size, when known, is the file's: it must agree before anything is
   allocated).  Reading a stream of unknown size grows the array as the
   data arrives, so a false header costs only what was sent. */
static int read_npy(FILE *f, long long size, const char *name, struct npy *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	unsigned char pre[12];
	size_t got = fread(pre, 1, 10, f);
	if (got < 10 || memcmp(pre, "\x93NUMPY", 6) != 0)
		return err_at(err, errlen, "%s: not a NumPy .npy file", name);
	unsigned major = pre[6];
	size_t hlen, off;
	if (major == 1) {
		hlen = pre[8] | (size_t)pre[9] << 8, off = 10;
	} else if (major == 2 || major == 3) {
		if (fread(pre + 10, 1, 2, f) != 2)
			return err_at(err, errlen, "%s: truncated header", name);
		hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24, off = 12;
	} else {
		return err_at(err, errlen, "%s: .npy version %u is not supported", name, major);
	}
	if (hlen > MAX_HEADER)
		return err_at(err, errlen, "%s: a header of %zu bytes (ttx reads headers of up to %u bytes)", name, hlen,
		              MAX_HEADER);
	if (size >= 0 && (unsigned long long)size < off + hlen)
		return err_at(err, errlen, "%s: truncated header", name);
	char *h = malloc(hlen + 1);
	if (!h)
		return err_at(err, errlen, "%s: out of memory", name);
	if (fread(h, 1, hlen, f) != hlen) {
		free(h);
		return err_at(err, errlen, "%s: truncated header", name);
	}
	h[hlen] = '\0';
	size_t item = 0, n = 0;
	int r = parse_header(h, hlen, name, out, &item, &n, err, errlen);
	free(h);
	if (r)
		return r;
	off += hlen;
	if (size >= 0 && (unsigned long long)size - off != (unsigned long long)n * item) {
		unsigned long long have = (unsigned long long)size - off, want = (unsigned long long)n * item;
		return err_at(err, errlen, "%s: %s: %llu bytes of data, the header declares %llu", name,
		              have < want ? "truncated data" : "bytes after the data", have, want);
	}
	unsigned char buf[1 << 16];
	size_t per = sizeof(buf) / item, have = 0, cap = 0;
	while (have < n) {
		size_t want = n - have < per ? n - have : per;
		size_t k = fread(buf, item, want, f);
		if (have + k > cap) {
			/* all at once for a file of the right size, else doubling */
			size_t ncap = size >= 0 ? n : cap ? 2 * cap : per;
			ncap = ncap > n ? n : ncap < have + k ? have + k : ncap;
			float *nd = realloc(out->data, ncap * sizeof(float));
			if (!nd) {
				npy_free(out);
				return err_at(err, errlen, "%s: out of memory", name);
			}
			out->data = nd;
			cap = ncap;
		}
		for (size_t i = 0; i < k; i++)
			out->data[have + i] = to_float(buf + i * item, item, out->dtype[1]);
		have += k;
		if (k < want)
			break;
	}
	if (ferror(f)) {
		npy_free(out);
		return err_at(err, errlen, "%s: read error", name);
	}
	if (have < n) {
		npy_free(out);
		return err_at(err, errlen, "%s: truncated data: %zu bytes, expected %zu", name, have * item, n * item);
	}
	if (fgetc(f) != EOF) {
		npy_free(out);
		return err_at(err, errlen, "%s: bytes after the data", name);
	}
	return 0;
}

int npy_parse(const unsigned char *buf, size_t len, const char *name, struct npy *out, char *err, size_t errlen)
{
	if (len < 10) {
		memset(out, 0, sizeof(*out));
		return err_at(err, errlen, "%s: not a NumPy .npy file", name);
	}
	FILE *f = fmemopen((void *)buf, len, "rb");
	if (!f) {
		memset(out, 0, sizeof(*out));
		return err_at(err, errlen, "%s: out of memory", name);
	}
	int r = read_npy(f, (long long)len, name, out, err, errlen);
	fclose(f);
	return r;
}

int npy_read(const char *path, struct npy *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return err_at(err, errlen, "%s: %s", path, strerror(errno));
	struct stat st;
	long long size = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
	if (size < 0 && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return err_at(err, errlen, "%s: is a directory", path);
	}
	int r = read_npy(f, size, strcmp(path, "-") ? path : "<stdin>", out, err, errlen);
	if (f != stdin)
		fclose(f);
	return r;
}

int npy_write(FILE *f, const float *data, const size_t *shape, int ndim)
{
	char h[256];
	int hl = snprintf(h, sizeof(h), "{'descr': '<f4', 'fortran_order': False, 'shape': (");
	size_t n = 1;
	for (int i = 0; i < ndim; i++) {
		hl += snprintf(h + hl, sizeof(h) - (size_t)hl, "%zu%s", shape[i], ndim == 1 ? "," : i + 1 < ndim ? ", " : "");
		n *= shape[i];
	}
	hl += snprintf(h + hl, sizeof(h) - (size_t)hl, "), }");
	while ((10 + hl + 1) % 64)
		h[hl++] = ' ';
	h[hl++] = '\n';
	unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)hl, (unsigned char)(hl >> 8) };
	int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(h, 1, (size_t)hl, f) == (size_t)hl;
	const uint16_t probe = 1;
	if (*(const unsigned char *)&probe == 1) {
		ok = ok && fwrite(data, 4, n, f) == n;         /* little-endian host: the bytes as they are */
	} else {
		for (size_t i = 0; ok && i < n; i++) {
			uint32_t u;
			memcpy(&u, &data[i], 4);
			unsigned char b[4] = { (unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
			                       (unsigned char)(u >> 24) };
			ok = fwrite(b, 1, 4, f) == 4;
		}
	}
	return ok ? 0 : -1;
}

void npy_free(struct npy *a)
{
	free(a->data);
	a->data = NULL;
}
