/* Tensil architectures (.tarch) and the instruction layout they imply
 * (docs/tensil.md "Architecture", "Encoding"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "tcu.h"

const struct tcu_dtype tcu_dtypes[TTX_TCU_FLOAT32 + 1] = {
	[TTX_TCU_FP16BP8] = { "FP16BP8", 16, 8, 2 }, [TTX_TCU_FP8BP4] = { "FP8BP4", 8, 4, 1 },
	[TTX_TCU_FP18BP10] = { "FP18BP10", 18, 10, 3 }, [TTX_TCU_FP32BP16] = { "FP32BP16", 32, 16, 4 },
	[TTX_TCU_FLOAT32] = { "FLOAT32", 32, 0, 4 },
};

const char *ttx_tcu_dtype_name(enum ttx_tcu_dtype t)
{
	return (unsigned)t <= TTX_TCU_FLOAT32 ? tcu_dtypes[t].name : NULL;
}

/* ceil(log2(n)): the bits that number 0 .. n - 1 */
static unsigned bits_for(uint64_t n)
{
	unsigned b = 0;
	while (b < 64 && (1ull << b) < n)
		b++;
	return b;
}

static unsigned round8(unsigned bits)
{
	return (bits + 7) / 8 * 8;
}

void tcu_layout_of(const struct ttx_tcu_arch *a, struct tcu_layout *l)
{
	unsigned acc = bits_for(a->accumulator_depth), d0 = bits_for(a->dram0_depth), d1 = bits_for(a->dram1_depth);
	memset(l, 0, sizeof(*l));
	l->local_bits = bits_for(a->local_depth);
	l->stride0_bits = bits_for(a->stride0_depth), l->stride1_bits = bits_for(a->stride1_depth);
	l->other_bits = acc > d0 ? (acc > d1 ? acc : d1) : (d0 > d1 ? d0 : d1);
	l->reg_bits = bits_for((uint64_t)a->simd_registers_depth + 1);
	l->regs = a->simd_registers_depth;
	l->tid_bits = bits_for(a->number_of_threads);
	unsigned simd = 4 + 3 * l->reg_bits, size = l->local_bits > acc ? l->local_bits : acc;
	l->op_bits[0] = round8(l->stride0_bits + l->local_bits);
	l->op_bits[1] = round8(l->stride1_bits + l->other_bits);
	l->op_bits[2] = round8(size > simd ? size : simd);
	l->header_bits = round8(8 + l->tid_bits);
	l->bytes = (l->op_bits[0] + l->op_bits[1] + l->op_bits[2] + l->header_bits) / 8;
}

unsigned ttx_tcu_instruction_bytes(const struct ttx_tcu_arch *a)
{
	struct tcu_layout l;
	if (!a)
		return 0;
	tcu_layout_of(a, &l);
	return l.bytes;
}

unsigned ttx_tcu_value_bytes(const struct ttx_tcu_arch *a)
{
	return a && (unsigned)a->data_type <= TTX_TCU_FLOAT32 ? tcu_dtypes[a->data_type].bytes : 0;
}

#define FAIL(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); goto bad; } while (0)

enum ttx_status tcu_arch_from_json(const struct json *root, const char *file, struct ttx_tcu_arch *out, char *err,
                                   size_t errlen)
{
	/* each key, where it goes, its least and greatest value */
	static const struct { const char *key; size_t at; int small; uint64_t lo, hi; } keys[] = {
		{ "array_size", offsetof(struct ttx_tcu_arch, array_size), 1, 1, 256 },
		{ "dram0_depth", offsetof(struct ttx_tcu_arch, dram0_depth), 0, 1, 1ull << 32 },
		{ "dram1_depth", offsetof(struct ttx_tcu_arch, dram1_depth), 0, 1, 1ull << 32 },
		{ "local_depth", offsetof(struct ttx_tcu_arch, local_depth), 0, 1, 1ull << 32 },
		{ "accumulator_depth", offsetof(struct ttx_tcu_arch, accumulator_depth), 0, 1, 1ull << 32 },
		{ "simd_registers_depth", offsetof(struct ttx_tcu_arch, simd_registers_depth), 1, 0, 64 },
		{ "stride0_depth", offsetof(struct ttx_tcu_arch, stride0_depth), 1, 1, 64 },
		{ "stride1_depth", offsetof(struct ttx_tcu_arch, stride1_depth), 1, 1, 64 },
		{ "number_of_threads", offsetof(struct ttx_tcu_arch, number_of_threads), 1, 1, 256 },
		{ "thread_queue_depth", offsetof(struct ttx_tcu_arch, thread_queue_depth), 1, 1, 1u << 20 },
	};
	struct ttx_tcu_arch a;
	memset(&a, 0, sizeof(a));
	if (root->type != JSON_OBJECT)
		FAIL("%s:%u:%u: an architecture is a JSON object with 11 keys, not %s", file, root->line, root->col,
		     json_type_name(root->type));
	for (const struct json *e = root->child; e; e = e->next) {
		int known = strcmp(e->key, "data_type") == 0;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			known |= strcmp(e->key, keys[i].key) == 0;
		if (!known)
			FAIL("%s:%u:%u: \"%s\" is not a key of an architecture (data_type, array_size, dram0_depth, "
			     "dram1_depth, local_depth, accumulator_depth, simd_registers_depth, stride0_depth, stride1_depth, "
			     "number_of_threads, thread_queue_depth)", file, e->line, e->col, e->key);
	}
	const struct json *dt = json_get(root, "data_type");
	if (!dt)
		FAIL("%s: the key \"data_type\" is missing", file);
	if (dt->type != JSON_STRING)
		FAIL("%s:%u:%u: \"data_type\" is %s, expected a string", file, dt->line, dt->col, json_type_name(dt->type));
	int found = 0;
	for (unsigned i = 0; i < 5; i++)
		if (strcmp(dt->string, tcu_dtypes[i].name) == 0)
			a.data_type = (enum ttx_tcu_dtype)i, found = 1;
	if (!found)
		FAIL("%s:%u:%u: \"data_type\" \"%s\": expected FP16BP8, FP8BP4, FP18BP10, FP32BP16 or FLOAT32", file,
		     dt->line, dt->col, dt->string);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct json *v = json_get(root, keys[i].key);
		if (!v)
			FAIL("%s: the key \"%s\" is missing", file, keys[i].key);
		if (v->type != JSON_NUMBER || v->number != floor(v->number) || v->number < (double)keys[i].lo ||
		    v->number > (double)keys[i].hi)
			FAIL("%s:%u:%u: \"%s\": expected a whole number from %llu to %llu", file, v->line, v->col, keys[i].key,
			     (unsigned long long)keys[i].lo, (unsigned long long)keys[i].hi);
		if (keys[i].small)
			*(uint32_t *)((char *)&a + keys[i].at) = (uint32_t)v->number;
		else
			*(uint64_t *)((char *)&a + keys[i].at) = (uint64_t)v->number;
	}
	*out = a;
	return TTX_OK;
bad:
	return TTX_EINVAL;
}

enum ttx_status ttx_tcu_arch_parse(const char *json, size_t len, const char *name, struct ttx_tcu_arch *out,
                                   char *err, size_t errlen)
{
	char jerr[200];
	const char *file = name ? name : "architecture";
	if (!json || !out) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_tcu_arch_parse: %s is NULL", json ? "out" : "json");
		return TTX_EINVAL;
	}
	struct json *root = json_parse(json, len, jerr, sizeof(jerr));
	if (!root) {
		if (err && errlen)
			snprintf(err, errlen, "%s:%s", file, jerr);
		return TTX_EINVAL;
	}
	enum ttx_status st = tcu_arch_from_json(root, file, out, err, errlen);
	json_free(root);
	return st;
}
