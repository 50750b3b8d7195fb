/* A small JSON reader for the Tensil files (.tarch, .tmodel): a tree of
 * values with the line and column each began at, for messages that name
 * the place at fault. */
#ifndef TTX_TENSIL_JSON_H
#define TTX_TENSIL_JSON_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double number;              /* JSON_NUMBER; JSON_BOOL: 0 or 1 */
	char *string;               /* JSON_STRING */
	char *key;                  /* a member of an object: its name */
	struct json *child, *next;  /* arrays and objects: the first element; the next sibling */
	unsigned line, col;
};

/* The value in text, or NULL with "LINE:COL: what" in err. */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);
void json_free(struct json *v);
/* Member `key` of an object (the last of duplicates), NULL if none. */
const struct json *json_get(const struct json *obj, const char *key);
const char *json_type_name(enum json_type t);

#endif
