/* A small JSON reader (RFC 8259) for the Tensil files: see json.h.  Nesting
 * is limited (64 levels) so that hostile input cannot exhaust the stack. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH 64

struct reader {
	const char *p, *end;
	unsigned line, col;
	char *err;
	size_t errlen;
	int failed;
};

static void fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct reader *r, const char *fmt, ...)
{
	if (r->failed)
		return;
	r->failed = 1;
	if (!r->err || !r->errlen)
		return;
	int n = snprintf(r->err, r->errlen, "%u:%u: ", r->line, r->col);
	if (n < 0 || (size_t)n >= r->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void advance(struct reader *r)
{
	if (*r->p == '\n')
		r->line++, r->col = 1;
	else
		r->col++;
	r->p++;
}

static void skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		advance(r);
}

static int literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		advance(r);
	return 1;
}

static char *string(struct reader *r)
{
	advance(r);   /* the quote */
	size_t cap = 16, n = 0;
	char *s = malloc(cap);
	if (!s) {
		fail(r, "out of memory");
		return NULL;
	}
	for (;;) {
		if (r->p >= r->end) {
			fail(r, "a string without its closing quote");
			break;
		}
		unsigned char c = (unsigned char)*r->p;
		if (c == '"') {
			advance(r);
			s[n] = 0;
			return s;
		}
		if (c < 0x20) {
			fail(r, "a control character inside a string");
			break;
		}
		if (c == '\\') {
			advance(r);
			if (r->p >= r->end) {
				fail(r, "a string ending in a backslash");
				break;
			}
			char e = *r->p;
			const char *map = strchr("\"\\/bfnrt", e);
			if (e == 'u') {   /* kept as '?' unless ASCII: the files use none */
				unsigned v = 0;
				for (int i = 0; i < 4; i++) {
					advance(r);
					char h = r->p < r->end ? *r->p : 0;
					int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
					        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
					if (d < 0) {
						fail(r, "\\u needs four hexadecimal digits");
						free(s);
						return NULL;
					}
					v = v * 16 + (unsigned)d;
				}
				c = v < 0x80 && v ? (unsigned char)v : '?';
			} else if (map) {
				c = (unsigned char)"\"\\/\b\f\n\r\t"[map - "\"\\/bfnrt"];
			} else {
				fail(r, "unknown escape \\%c", e);
				break;
			}
		}
		if (n + 2 > cap) {
			char *t = realloc(s, cap *= 2);
			if (!t) {
				fail(r, "out of memory");
				break;
			}
			s = t;
		}
		s[n++] = (char)c;
		advance(r);
	}
	free(s);
	return NULL;
}

static struct json *value(struct reader *r, unsigned depth);

static struct json *node(struct reader *r, enum json_type t)
{
	struct json *v = calloc(1, sizeof(*v));
	if (!v) {
		fail(r, "out of memory");
		return NULL;
	}
	v->type = t, v->line = r->line, v->col = r->col;
	return v;
}

static struct json *container(struct reader *r, unsigned depth, int object)
{
	struct json *v = node(r, object ? JSON_OBJECT : JSON_ARRAY), **tail;
	if (!v)
		return NULL;
	tail = &v->child;
	advance(r);
	skip_space(r);
	if (r->p < r->end && *r->p == (object ? '}' : ']')) {
		advance(r);
		return v;
	}
	for (;;) {
		char *key = NULL;
		unsigned kline, kcol;
		skip_space(r);
		kline = r->line, kcol = r->col;
		if (object) {
			if (r->p >= r->end || *r->p != '"') {
				fail(r, "expected a member name in quotes");
				break;
			}
			if (!(key = string(r)))
				break;
			skip_space(r);
			if (r->p >= r->end || *r->p != ':') {
				fail(r, "expected ':' after \"%s\"", key);
				free(key);
				break;
			}
			advance(r);
		}
		struct json *e = value(r, depth + 1);
		if (!e) {
			free(key);
			break;
		}
		e->key = key;
		if (object)   /* (a member is where its name is) */
			e->line = kline, e->col = kcol;
		*tail = e, tail = &e->next;
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			advance(r);
			continue;
		}
		if (r->p < r->end && *r->p == (object ? '}' : ']')) {
			advance(r);
			return v;
		}
		fail(r, "expected ',' or '%c'", object ? '}' : ']');
		break;
	}
	json_free(v);
	return NULL;
}

static struct json *value(struct reader *r, unsigned depth)
{
	skip_space(r);
	if (depth > MAX_DEPTH) {
		fail(r, "nested more than %d deep", MAX_DEPTH);
		return NULL;
	}
	if (r->p >= r->end) {
		fail(r, "expected a value, found the end of the file");
		return NULL;
	}
	char c = *r->p;
	if (c == '{' || c == '[')
		return container(r, depth, c == '{');
	if (c == '"') {
		struct json *v = node(r, JSON_STRING);
		if (v && !(v->string = string(r))) {
			free(v);
			return NULL;
		}
		return v;
	}
	if (c == 't' || c == 'f' || c == 'n') {
		struct json *v = node(r, c == 'n' ? JSON_NULL : JSON_BOOL);
		if (!v)
			return NULL;
		v->number = c == 't';
		if (!literal(r, c == 't' ? "true" : c == 'f' ? "false" : "null")) {
			fail(r, "expected true, false or null");
			free(v);
			return NULL;
		}
		return v;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		struct json *v = node(r, JSON_NUMBER);
		if (!v)
			return NULL;
		char buf[64];
		size_t n = 0;
		while (r->p < r->end && n < sizeof(buf) - 1 && strchr("+-0123456789.eE", *r->p))
			buf[n++] = *r->p, advance(r);
		buf[n] = 0;
		char *e;
		v->number = strtod(buf, &e);
		if (*e || !isfinite(v->number) || (buf[0] == '-' ? buf[1] : buf[0]) == '.' ) {
			fail(r, "'%s' is not a number", buf);
			free(v);
			return NULL;
		}
		return v;
	}
	fail(r, "unexpected '%c'", c);
	return NULL;
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct reader r = { text, text + len, 1, 1, err, errlen, 0 };
	struct json *v = value(&r, 0);
	if (v) {
		skip_space(&r);
		if (r.p < r.end) {
			fail(&r, "unexpected '%c' after the value", *r.p);
			json_free(v);
			return NULL;
		}
	}
	return v;
}

void json_free(struct json *v)
{
	while (v) {
		struct json *next = v->next;
		json_free(v->child);
		free(v->string), free(v->key), free(v);
		v = next;
	}
}

const struct json *json_get(const struct json *obj, const char *key)
{
	const struct json *found = NULL;
	if (obj && obj->type == JSON_OBJECT)
		for (const struct json *e = obj->child; e; e = e->next)
			if (strcmp(e->key, key) == 0)
				found = e;
	return found;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = { "null", "a boolean", "a number", "a string", "an array", "an object" };
	return names[t];
}
