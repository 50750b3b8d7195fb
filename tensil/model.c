/* Tensil models (.tmodel) as the reference emulator runs them (docs/
 * tensil.md "Models"): the constants into DRAM1 (or local memory), the
 * inputs into DRAM0, the program, the outputs out of DRAM0; and the
 * conversions between floats and the architecture's values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tcu.h"

/* ---- values ---- */

void ttx_tcu_from_float(const struct ttx_tcu_arch *a, const float *in, void *image, size_t n)
{
	if (!a || (unsigned)a->data_type > TTX_TCU_FLOAT32 || (!in && n))
		return;
	const struct tcu_dtype *d = &tcu_dtypes[a->data_type];
	double lo = -ldexp(1, (int)d->width - 1), hi = ldexp(1, (int)d->width - 1) - 1;
	uint8_t *b = image;
	for (size_t i = 0; i < n; i++, b += d->bytes) {
		int32_t bits;
		if (a->data_type == TTX_TCU_FLOAT32) {
			memcpy(&bits, &in[i], 4);
		} else {
			double v = nearbyint(ldexp(in[i], (int)d->point));   /* (the default mode: to even) */
			if (isnan(in[i]))
				v = 0;
			bits = (int32_t)(v < lo ? lo : v > hi ? hi : v);
		}
		tcu_image_put(b, d->bytes, bits);
	}
}

void ttx_tcu_to_float(const struct ttx_tcu_arch *a, const void *image, float *out, size_t n)
{
	if (!a || (unsigned)a->data_type > TTX_TCU_FLOAT32 || (!out && n))
		return;
	const struct tcu_dtype *d = &tcu_dtypes[a->data_type];
	const uint8_t *b = image;
	for (size_t i = 0; i < n; i++, b += d->bytes) {
		int32_t v = tcu_image_get(b, d->bytes, d->width);
		if (a->data_type == TTX_TCU_FLOAT32)
			memcpy(&out[i], &v, 4);
		else
			out[i] = (float)ldexp((double)v, -(int)d->point);
	}
}

/* ---- the .tmodel file ---- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	while (b) {
		size_t k = fread(b + n, 1, cap - n - 1, f);
		n += k;
		if (n + 1 < cap)
			break;
		char *t = realloc(b, cap *= 2);
		if (!t)
			free(b);
		b = t;
	}
	int bad = ferror(f);
	fclose(f);
	if (!b || bad) {
		free(b);
		return NULL;
	}
	b[n] = 0;
	*len = n;
	return b;
}

/* path relative to the folder of `base` */
static char *beside(const char *base, const char *path)
{
	const char *slash = strrchr(base, '/');
	size_t d = path[0] == '/' || !slash ? 0 : (size_t)(slash - base + 1);
	char *s = malloc(d + strlen(path) + 1);
	if (s) {
		memcpy(s, base, d);
		strcpy(s + d, path);
	}
	return s;
}

#define BAD(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); goto bad; } while (0)

static int whole(const struct json *v, uint64_t *out)
{
	if (!v || v->type != JSON_NUMBER || v->number < 0 || v->number != floor(v->number) || v->number > 9007199254740992.0)
		return 0;
	*out = (uint64_t)v->number;
	return 1;
}

static enum ttx_status ios(const char *file, const struct json *root, const char *key, struct ttx_tcu_model_io **out,
                           size_t *n, char *err, size_t errlen)
{
	const struct json *list = json_get(root, key);
	*out = NULL, *n = 0;
	if (!list)
		BAD("%s: the key \"%s\" is missing", file, key);
	if (list->type != JSON_ARRAY)
		BAD("%s:%u:%u: \"%s\" is %s, expected an array", file, list->line, list->col, key, json_type_name(list->type));
	size_t count = 0;
	for (const struct json *e = list->child; e; e = e->next)
		count++;
	if (!(*out = calloc(count ? count : 1, sizeof(**out))))
		BAD("%s: out of memory", file);
	for (const struct json *e = list->child; e; e = e->next) {
		struct ttx_tcu_model_io *io = &(*out)[*n];
		const struct json *name = json_get(e, "name");
		if (e->type != JSON_OBJECT || !name || name->type != JSON_STRING || !whole(json_get(e, "base"), &io->base) ||
		    !whole(json_get(e, "size"), &io->size))
			BAD("%s:%u:%u: an entry of \"%s\" needs \"name\" (a string), \"base\" and \"size\" (whole numbers)", file,
			    e->line, e->col, key);
		if (!(io->name = strdup(name->string)))
			BAD("%s: out of memory", file);
		(*n)++;
	}
	return TTX_OK;
bad:
	return TTX_EINVAL;
}

void ttx_tcu_model_free(struct ttx_tcu_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nconsts; i++)
		free(m->consts[i].path);
	for (size_t i = 0; i < m->ninputs; i++)
		free(m->inputs[i].name);
	for (size_t i = 0; i < m->noutputs; i++)
		free(m->outputs[i].name);
	free(m->consts), free(m->inputs), free(m->outputs), free(m->name), free(m->program), free(m);
}

enum ttx_status ttx_tcu_model_load(const char *path, struct ttx_tcu_model **out, char *err, size_t errlen)
{
	struct ttx_tcu_model *m = NULL;
	struct json *root = NULL;
	char *text = NULL, jerr[200];
	size_t len;
	if (!path || !out)
		BAD("ttx_tcu_model_load: %s is NULL", path ? "out" : "path");
	*out = NULL;
	if (!(text = read_all(path, &len)))
		BAD("%s: cannot read it", path);
	if (!(root = json_parse(text, len, jerr, sizeof(jerr))))
		BAD("%s:%s", path, jerr);
	if (root->type != JSON_OBJECT)
		BAD("%s: a model is a JSON object", path);
	if (!(m = calloc(1, sizeof(*m))))
		BAD("%s: out of memory", path);
	const struct json *name = json_get(root, "name"), *prog = json_get(root, "program"), *arch = json_get(root, "arch");
	m->name = strdup(name && name->type == JSON_STRING ? name->string : path);
	if (!prog || prog->type != JSON_OBJECT || !json_get(prog, "file_name") ||
	    json_get(prog, "file_name")->type != JSON_STRING)
		BAD("%s: \"program\" must be an object with \"file_name\"", path);
	m->program = beside(path, json_get(prog, "file_name")->string);
	if (!arch || arch->type != JSON_OBJECT)
		BAD("%s: \"arch\" (the architecture, as in a .tarch) is missing", path);
	{
		char aerr[400];
		if (tcu_arch_from_json(arch, path, &m->arch, aerr, sizeof(aerr)) != TTX_OK)
			BAD("%s (in \"arch\")", aerr);
	}
	const struct json *consts = json_get(root, "consts"), *lc = json_get(root, "load_consts_to_local");
	m->load_consts_to_local = lc && lc->type == JSON_BOOL && lc->number != 0;
	if (consts) {
		if (consts->type != JSON_ARRAY)
			BAD("%s:%u:%u: \"consts\" must be an array", path, consts->line, consts->col);
		size_t n = 0;
		for (const struct json *e = consts->child; e; e = e->next)
			n++;
		if (!(m->consts = calloc(n ? n : 1, sizeof(*m->consts))))
			BAD("%s: out of memory", path);
		for (const struct json *e = consts->child; e; e = e->next) {
			const struct json *fn = json_get(e, "file_name");
			struct ttx_tcu_model_const *c = &m->consts[m->nconsts];
			if (!fn || fn->type != JSON_STRING || !whole(json_get(e, "base"), &c->base) ||
			    !whole(json_get(e, "size"), &c->size))
				BAD("%s:%u:%u: a \"consts\" entry needs \"file_name\", \"base\" and \"size\"", path, e->line, e->col);
			c->path = beside(path, fn->string);
			m->nconsts++;
		}
	}
	if (ios(path, root, "inputs", &m->inputs, &m->ninputs, err, errlen) != TTX_OK ||
	    ios(path, root, "outputs", &m->outputs, &m->noutputs, err, errlen) != TTX_OK)
		goto bad;
	json_free(root);
	free(text);
	*out = m;
	return TTX_OK;
bad:
	json_free(root);
	free(text);
	ttx_tcu_model_free(m);
	return TTX_EINVAL;
}

enum ttx_status ttx_tcu_model_run(struct ttx_tcu *t, const struct ttx_tcu_model *m, const float *const *inputs,
                                  float *const *outputs)
{
	if (!t || !m)
		return TTX_EINVAL;
	const struct ttx_tcu_arch *a = &t->arch;
	if (memcmp(a, &m->arch, sizeof(*a)) != 0)
		return tcu_fail(t, TTX_EINVAL, "%s: the TCU was made for another architecture", m->name);
	size_t vb = (size_t)ttx_tcu_value_bytes(a) * a->array_size, len;
	enum ttx_status st = TTX_OK;
	for (size_t i = 0; i < m->nconsts && st == TTX_OK; i++) {
		char *d = read_all(m->consts[i].path, &len);
		if (!d)
			return tcu_fail(t, TTX_EINVAL, "%s: cannot read its constants %s", m->name, m->consts[i].path);
		if (len != m->consts[i].size * vb)
			st = tcu_fail(t, TTX_EINVAL, "%s: %s holds %zu bytes, the model says %llu vectors of %zu", m->name,
			              m->consts[i].path, len, (unsigned long long)m->consts[i].size, vb);
		else
			st = ttx_tcu_write(t, m->load_consts_to_local ? TTX_TCU_LOCAL : TTX_TCU_DRAM1, m->consts[i].base, d,
			                   m->consts[i].size);
		free(d);
	}
	for (size_t i = 0; i < m->ninputs && st == TTX_OK; i++) {
		size_t n = m->inputs[i].size * a->array_size;
		uint8_t *img = malloc(n * ttx_tcu_value_bytes(a) + 1);
		if (!img)
			return tcu_fail(t, TTX_ENOMEM, "out of memory");
		ttx_tcu_from_float(a, inputs[i], img, n);
		st = ttx_tcu_write(t, TTX_TCU_DRAM0, m->inputs[i].base, img, m->inputs[i].size);
		free(img);
	}
	if (st != TTX_OK)
		return st;
	char *prog = read_all(m->program, &len);
	if (!prog)
		return tcu_fail(t, TTX_EINVAL, "%s: cannot read its program %s", m->name, m->program);
	st = ttx_tcu_run(t, prog, len, m->program, 0);
	free(prog);
	for (size_t i = 0; i < m->noutputs && st == TTX_OK; i++) {
		size_t n = m->outputs[i].size * a->array_size;
		uint8_t *img = malloc(n * ttx_tcu_value_bytes(a) + 1);
		if (!img)
			return tcu_fail(t, TTX_ENOMEM, "out of memory");
		st = ttx_tcu_read(t, TTX_TCU_DRAM0, m->outputs[i].base, img, m->outputs[i].size);
		if (st == TTX_OK)
			ttx_tcu_to_float(a, img, outputs[i], n);
		free(img);
	}
	return st;
}
