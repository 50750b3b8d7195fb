/* NumPy .npy reading and writing (npy.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int npy_parse(const unsigned char *buf, size_t len, const char *name, struct npy *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
		return err_at(err, errlen, "%s: not a NumPy .npy file", name);
	unsigned major = buf[6];
	size_t hlen, off;
	if (major == 1) {
		hlen = buf[8] | (size_t)buf[9] << 8, off = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12)
			return err_at(err, errlen, "%s: truncated header", name);
		hlen = buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24, off = 12;
	} else {
		return err_at(err, errlen, "%s: .npy version %u is not supported", name, major);
	}
	if (hlen > len - off || hlen > 65536)
		return err_at(err, errlen, "%s: truncated header", name);
	char h[65537];
	memcpy(h, buf + off, hlen);
	h[hlen] = '\0';
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
	if (*sh != '(')
		return err_at(err, errlen, "%s: corrupt header (shape)", name);
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
			return err_at(err, errlen, "%s: %s arrays of more than 3 dimensions are not supported", name, sh);
		if (v == 0)
			return err_at(err, errlen, "%s: the array is empty", name);
		if (v > ((size_t)1 << 31) || n > ((size_t)1 << 34) / v)
			return err_at(err, errlen, "%s: the array is too large", name);
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
	off += hlen;
	if (len - off < n * item)
		return err_at(err, errlen, "%s: truncated data: %zu bytes, expected %zu", name, len - off, n * item);
	if (len - off > n * item)
		return err_at(err, errlen, "%s: %zu bytes after the data", name, len - off - n * item);
	out->data = malloc(n * sizeof(float));
	if (!out->data)
		return err_at(err, errlen, "%s: out of memory", name);
	const unsigned char *q = buf + off;
	for (size_t i = 0; i < n; i++, q += item) {
		uint64_t u = 0;
		for (size_t k = 0; k < item; k++)
			u |= (uint64_t)q[k] << (8 * k);
		float v;
		double dv;
		uint32_t u32 = (uint32_t)u;
		switch (out->dtype[1] == 'f' ? item : 16 + item + (out->dtype[1] == 'u' ? 8 : 0)) {
		case 4: memcpy(&v, &u32, 4); break;
		case 2: v = half_to_float((uint16_t)u); break;
		case 8: memcpy(&dv, &u, 8); v = (float)dv; break;
		case 17: v = (float)(int8_t)u; break;
		case 25: v = (float)(uint8_t)u; break;
		case 18: v = (float)(int16_t)u; break;
		default: v = (float)(int32_t)u32; break;
		}
		out->data[i] = v;
	}
	return 0;
}

int npy_read(const char *path, struct npy *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_at(err, errlen, "%s: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		unsigned char *nb = cap < ((size_t)1 << 36) ? realloc(buf, 2 * cap) : NULL;
		if (!nb)
			free(buf);
		buf = nb, cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf)
		return err_at(err, errlen, "%s: out of memory", path);
	int r = bad ? err_at(err, errlen, "%s: read error", path) : npy_parse(buf, n, path, out, err, errlen);
	free(buf);
	return r;
}

int npy_write(const char *path, const float *data, const size_t *shape, int ndim, char *err, size_t errlen)
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
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return err_at(err, errlen, "%s: path too long", path);
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return err_at(err, errlen, "%s: %s", path, strerror(errno));
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
	if (fclose(f) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) != 0) {
		int e = errno;
		remove(tmp);
		return err_at(err, errlen, "%s: %s", path, ok ? strerror(e) : "write error");
	}
	return 0;
}

void npy_free(struct npy *a)
{
	free(a->data);
	a->data = NULL;
}
