/* TCU instructions: decoding .tprog bytes, encoding them back, and the
 * assembler and disassembler of docs/tensil.md "Assembly", all from the
 * table of tcu_isa.def and the layout of an architecture. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcu.h"

static const struct op_info {
	const char *mnemonic;
	enum tcu_operand operand[3];
	const char *flag[4];
} ops[16] = {
#define TCU_OP(name, code, mn, a, b, c, f0, f1, f2, f3) [code] = { mn, { TCU_OPND_##a, TCU_OPND_##b, TCU_OPND_##c }, { f0, f1, f2, f3 } },
#include "tcu_isa.def"
#undef TCU_OP
};

static const char *const alu_names[TCU_ALU_COUNT] = {
	"noop", "zero", "move", "not", "and", "or", "increment", "decrement", "add", "subtract", "multiply", "abs",
	"greater", "greater_equal", "min", "max", "lookup",
};

static const char *const cfg_names[TCU_CFG_COUNT] = {
	[TCU_CFG_DRAM0_OFFSET] = "dram0_offset", [TCU_CFG_DRAM0_CACHE] = "dram0_cache",
	[TCU_CFG_DRAM1_OFFSET] = "dram1_offset", [TCU_CFG_DRAM1_CACHE] = "dram1_cache",
	[TCU_CFG_TIMEOUT] = "timeout", [TCU_CFG_TRACEPOINT] = "tracepoint",
	[TCU_CFG_PROGRAM_COUNTER] = "program_counter", [TCU_CFG_SAMPLE_INTERVAL] = "sample_interval",
};

/* DataMove kinds: assembler word, the memory besides local */
static const struct { const char *word, *other; } moves[16] = {
	[TCU_DRAM0_TO_LOCAL] = { "dram0>local", "dram0" }, [TCU_LOCAL_TO_DRAM0] = { "local>dram0", "dram0" },
	[TCU_DRAM1_TO_LOCAL] = { "dram1>local", "dram1" }, [TCU_LOCAL_TO_DRAM1] = { "local>dram1", "dram1" },
	[TCU_ACC_TO_LOCAL] = { "acc>local", "acc" }, [TCU_LOCAL_TO_ACC] = { "local>acc", "acc" },
	[TCU_LOCAL_TO_ACC_ACC] = { "local>acc+", "acc" },
};

const char *tcu_op_name(unsigned opcode)
{
	return opcode < 16 && ops[opcode].mnemonic ? ops[opcode].mnemonic : NULL;
}

const char *tcu_alu_name(unsigned alu)
{
	return alu < TCU_ALU_COUNT ? alu_names[alu] : NULL;
}

/* ---- bits ---- */

static uint64_t get_bits(const uint8_t *b, unsigned at, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)(b[(at + i) / 8] >> ((at + i) % 8) & 1) << i;
	return v;
}

static void put_bits(uint8_t *b, unsigned at, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		if (v >> i & 1)
			b[(at + i) / 8] |= (uint8_t)(1u << ((at + i) % 8));
}

static int valid_cfg(uint64_t r)
{
	return r < TCU_CFG_COUNT && cfg_names[r];
}

/* The fields of one instruction; 0, or -1 with the reason in why. */
static int decode_one(const struct tcu_layout *l, const uint8_t *b, struct tcu_insn *in, char *why, size_t whylen)
{
	memset(in, 0, sizeof(*in));
	unsigned at = 0;
	for (unsigned k = 0; k < 3; k++) {
		unsigned n = l->op_bits[k] > 64 ? 64 : l->op_bits[k];
		in->op[k] = get_bits(b, at, n);
		at += l->op_bits[k];
	}
	in->flags = (uint8_t)get_bits(b, at, 4);
	in->opcode = (uint8_t)get_bits(b, at + 4, 4);
	in->tid = (uint8_t)get_bits(b, at + 8, l->tid_bits > 8 ? 8 : l->tid_bits);
	const struct op_info *o = &ops[in->opcode];
	if (!o->mnemonic) {
		snprintf(why, whylen, "opcode %u has no meaning (0 wait, 1 matmul, 2 datamove, 3 loadweights, 4 simd, "
		         "5 loadlut, 7 configure)", in->opcode);
		return -1;
	}
	for (unsigned k = 0; k < 2; k++) {
		unsigned abits = k == 0 ? l->local_bits : l->other_bits, sbits = k == 0 ? l->stride0_bits : l->stride1_bits;
		enum tcu_operand kind = o->operand[k];
		if (kind == TCU_OPND_LOCAL || kind == TCU_OPND_ACC || kind == TCU_OPND_OTHER) {
			in->addr[k] = in->op[k] & ((1ull << abits) - 1);
			in->stride[k] = (unsigned)(in->op[k] >> abits & ((1ull << sbits) - 1));
			if (in->op[k] >> (abits + sbits)) {
				snprintf(why, whylen, "operand %u (0x%llX) sets bits above its stride and address", k,
				         (unsigned long long)in->op[k]);
				return -1;
			}
		} else {
			in->addr[k] = in->op[k];
		}
	}
	switch (in->opcode) {
	case TCU_DATAMOVE:
		if (!moves[in->flags].word) {
			snprintf(why, whylen, "DataMove kind %u has no meaning (0-3, 12, 13 and 15)", in->flags);
			return -1;
		}
		break;
	case TCU_SIMD: {
		unsigned r = l->reg_bits;
		uint64_t s = in->op[2];
		in->dest = (unsigned)(s & ((1u << r) - 1));
		in->right = (unsigned)(s >> r & ((1u << r) - 1));
		in->left = (unsigned)(s >> 2 * r & ((1u << r) - 1));
		uint64_t alu = s >> 3 * r;
		if (alu >= TCU_ALU_COUNT) {
			snprintf(why, whylen, "SIMD operation %llu has no meaning (0-16)", (unsigned long long)alu);
			return -1;
		}
		in->alu = (unsigned)alu;
		break;
	}
	case TCU_CONFIGURE:
		if (!valid_cfg(in->op[0])) {
			snprintf(why, whylen, "configuration register %llu has no meaning (0, 1, 4, 5, 8-11)",
			         (unsigned long long)in->op[0]);
			return -1;
		}
		break;
	default:
		break;
	}
	return 0;
}

void tcu_encode(const struct tcu_layout *l, const struct tcu_insn *in, uint8_t *out)
{
	memset(out, 0, l->bytes);
	unsigned at = 0;
	for (unsigned k = 0; k < 3; k++) {
		put_bits(out, at, l->op_bits[k] > 64 ? 64 : l->op_bits[k], in->op[k]);
		at += l->op_bits[k];
	}
	put_bits(out, at, 4, in->flags);
	put_bits(out, at + 4, 4, in->opcode);
	put_bits(out, at + 8, l->tid_bits > 8 ? 8 : l->tid_bits, in->tid);
}

enum ttx_status tcu_decode(const struct ttx_tcu_arch *a, const uint8_t *bytes, size_t len, const char *name,
                           struct tcu_program *out, char *err, size_t errlen)
{
	struct tcu_layout l;
	tcu_layout_of(a, &l);
	const char *file = name ? name : "program";
	out->insn = NULL, out->n = 0;
	if (len % l.bytes) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %zu bytes is not a whole number of %u-byte instructions (for this "
			         "architecture)", file, len, l.bytes);
		return TTX_EINVAL;
	}
	size_t n = len / l.bytes;
	out->insn = malloc((n ? n : 1) * sizeof(*out->insn));
	if (!out->insn) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", file);
		return TTX_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		char why[160];
		if (decode_one(&l, bytes + i * l.bytes, &out->insn[i], why, sizeof(why))) {
			if (err && errlen)
				snprintf(err, errlen, "%s: instruction #%zu (byte %zu): %s", file, i, i * l.bytes, why);
			tcu_program_free(out);
			return TTX_EINVAL;
		}
	}
	out->n = n;
	return TTX_OK;
}

void tcu_program_free(struct tcu_program *p)
{
	free(p->insn);
	p->insn = NULL, p->n = 0;
}

/* ---- disassembly ---- */

struct text {
	char *s;
	size_t n, cap;
	int failed;
};

static void emit(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			t->failed = 1;
			return;
		}
		if (t->s && t->n + (size_t)k < t->cap) {
			t->n += (size_t)k;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		while (cap < t->n + (size_t)k + 1)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->failed = 1;
			return;
		}
		t->s = s, t->cap = cap;
	}
}

static void addr_text(struct text *t, uint64_t addr, unsigned stride)
{
	emit(t, "%llu", (unsigned long long)addr);
	if (stride)
		emit(t, "@%llu", 1ull << stride);
}

static void reg_text(struct text *t, unsigned r, int dest)
{
	if (r)
		emit(t, "r%u", r);
	else
		emit(t, "%s", dest ? "out" : "in");
}

/* The canonical text of an instruction (no newline). */
static void insn_text(struct text *t, const struct tcu_insn *in)
{
	const struct op_info *o = &ops[in->opcode];
	if (in->tid)
		emit(t, "t%u: ", in->tid);
	switch (in->opcode) {
	case TCU_WAIT:
		emit(t, "wait %llu", (unsigned long long)in->op[0]);
		return;
	case TCU_MATMUL:
		emit(t, "matmul local ");
		addr_text(t, in->addr[0], in->stride[0]);
		emit(t, " acc ");
		addr_text(t, in->addr[1], in->stride[1]);
		emit(t, " count %llu", (unsigned long long)in->op[2] + 1);
		break;
	case TCU_DATAMOVE:
		emit(t, "datamove %s local ", moves[in->flags].word);
		addr_text(t, in->addr[0], in->stride[0]);
		emit(t, " %s ", moves[in->flags].other);
		addr_text(t, in->addr[1], in->stride[1]);
		emit(t, " count %llu", (unsigned long long)in->op[2] + 1);
		return;
	case TCU_LOADWEIGHTS:
		emit(t, "loadweights local ");
		addr_text(t, in->addr[0], in->stride[0]);
		emit(t, " count %llu", (unsigned long long)in->op[1] + 1);
		break;
	case TCU_SIMD:
		emit(t, "simd %s ", alu_names[in->alu]);
		reg_text(t, in->left, 0);
		emit(t, " ");
		reg_text(t, in->right, 0);
		emit(t, " ");
		reg_text(t, in->dest, 1);
		emit(t, " w=%llu r=%llu", (unsigned long long)in->op[0], (unsigned long long)in->op[1]);
		break;
	case TCU_LOADLUT:
		emit(t, "loadlut local ");
		addr_text(t, in->addr[0], in->stride[0]);
		emit(t, " table %llu", (unsigned long long)in->op[1]);
		return;
	case TCU_CONFIGURE:
		emit(t, "configure %s %llu", cfg_names[in->op[0]], (unsigned long long)in->op[1]);
		return;
	}
	for (unsigned f = 0; f < 4; f++)
		if (in->flags >> f & 1)
			emit(t, " %s", o->flag[f]);
}

void tcu_insn_text(const struct tcu_insn *in, char *buf, size_t len)
{
	struct text t = { 0 };
	insn_text(&t, in);
	snprintf(buf, len, "%s", t.s && !t.failed ? t.s : "?");
	free(t.s);
}

/* Whether the canonical text says everything the bytes do (else .insn). */
static int canonical(const struct tcu_layout *l, const struct tcu_insn *in, const uint8_t *bytes)
{
	struct tcu_insn c = *in;
	const struct op_info *o = &ops[in->opcode];
	/* registers the architecture lacks: the assembler refuses rN past them */
	if (in->opcode == TCU_SIMD && (in->left > l->regs || in->right > l->regs || in->dest > l->regs))
		return 0;
	/* what the text leaves out is zero */
	for (unsigned f = 0; f < 4; f++)
		if (!o->flag[f][0] && in->opcode != TCU_DATAMOVE)
			c.flags &= (uint8_t)~(1u << f);
	for (unsigned k = 0; k < 3; k++)
		if (o->operand[k] == TCU_OPND_NONE)
			c.op[k] = 0;
	uint8_t re[64];
	tcu_encode(l, &c, re);
	return memcmp(re, bytes, l->bytes) == 0;
}

enum ttx_status ttx_tcu_disassemble(const struct ttx_tcu_arch *a, const void *prog, size_t len, const char *name,
                                    char **text, char *err, size_t errlen)
{
	if (!a || !text || (!prog && len)) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_tcu_disassemble: an argument is NULL");
		return TTX_EINVAL;
	}
	struct tcu_layout l;
	tcu_layout_of(a, &l);
	const char *file = name ? name : "program";
	*text = NULL;
	if (len % l.bytes) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %zu bytes is not a whole number of %u-byte instructions (for this "
			         "architecture)", file, len, l.bytes);
		return TTX_EINVAL;
	}
	struct text t = { 0 };
	emit(&t, "; %s: %zu instructions of %u bytes (%s, array %u)\n", file, len / l.bytes, l.bytes,
	     ttx_tcu_dtype_name(a->data_type), a->array_size);
	const uint8_t *b = prog;
	for (size_t i = 0; i < len / l.bytes; i++, b += l.bytes) {
		struct tcu_insn in;
		char why[160];
		if (decode_one(&l, b, &in, why, sizeof(why)) == 0 && canonical(&l, &in, b)) {
			insn_text(&t, &in);
			emit(&t, "\n");
			continue;
		}
		emit(&t, ".insn 0x");   /* the bytes, most significant first */
		for (unsigned k = l.bytes; k-- > 0;)
			emit(&t, "%02X", b[k]);
		emit(&t, "\n");
	}
	if (t.failed) {
		free(t.s);
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", file);
		return TTX_ENOMEM;
	}
	*text = t.s;
	return TTX_OK;
}

/* ---- assembly ---- */

struct parser {
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
};

static enum ttx_status perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static enum ttx_status perr(struct parser *p, const char *fmt, ...)
{
	if (p->err && p->errlen) {
		int n = snprintf(p->err, p->errlen, "%s:%u: ", p->file, p->line);
		if (n >= 0 && (size_t)n < p->errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return TTX_EINVAL;
}

/* A number: decimal or 0x hexadecimal. */
static int number(const char *s, uint64_t *v)
{
	char *e;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	unsigned long long x = strtoull(s, &e, 0);
	if (*e)
		return -1;
	*v = x;
	return 0;
}

/* "ADDR" or "ADDR@STRIDE" (a power of two) */
static enum ttx_status operand(struct parser *p, const char *w, unsigned abits, unsigned sbits, uint64_t *field,
                               const char *what)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", w);
	char *at = strchr(buf, '@');
	uint64_t addr, stride = 1;
	if (at)
		*at = 0;
	if (number(buf, &addr) || (at && number(at + 1, &stride)))
		return perr(p, "%s '%s': expected ADDR or ADDR@STRIDE", what, w);
	if (addr >> abits)
		return perr(p, "%s address %llu does not fit its %u bits", what, (unsigned long long)addr, abits);
	unsigned s = 0;
	while (s < 64 && (1ull << s) < stride)
		s++;
	if ((1ull << s) != stride || (s >> sbits))
		return perr(p, "%s stride %llu: expected a power of two below %llu", what, (unsigned long long)stride,
		            1ull << (1u << sbits > 64 ? 63 : (1u << sbits) - 1) << 1);
	*field = addr | (uint64_t)s << abits;
	return TTX_OK;
}

static enum ttx_status count_field(struct parser *p, const char *w, unsigned bits, uint64_t *field)
{
	uint64_t n;
	if (number(w, &n) || n == 0)
		return perr(p, "count '%s': expected a number of vectors, at least 1", w);
	if (bits < 64 && (n - 1) >> bits)
		return perr(p, "count %llu does not fit the %u-bit size field", (unsigned long long)n, bits);
	*field = n - 1;
	return TTX_OK;
}

static enum ttx_status reg_field(struct parser *p, const char *w, int dest, unsigned regs, unsigned *out)
{
	uint64_t r;
	if (strcmp(w, dest ? "out" : "in") == 0)
		r = 0;
	else if (w[0] != 'r' || number(w + 1, &r) || r == 0)
		return perr(p, "'%s': expected %s or a register r1, r2, ...", w, dest ? "out" : "in");
	if (r > regs)
		return perr(p, "register %s: the architecture has %u", w, regs);
	*out = (unsigned)r;
	return TTX_OK;
}

static enum ttx_status value_field(struct parser *p, const char *w, unsigned bits, uint64_t *field, const char *what)
{
	uint64_t v;
	if (number(w, &v))
		return perr(p, "%s '%s': expected a number", what, w);
	if (bits < 64 && v >> bits)
		return perr(p, "%s %llu does not fit its %u bits", what, (unsigned long long)v, bits);
	*field = v;
	return TTX_OK;
}

#define MAX_WORDS 16

static enum ttx_status assemble_line(struct parser *p, const struct tcu_layout *l, char **w, int n,
                                     struct tcu_insn *in, uint8_t *raw, int *is_raw)
{
	memset(in, 0, sizeof(*in));
	*is_raw = 0;
	if (n >= 1 && w[0][0] == 't' && w[0][strlen(w[0]) - 1] == ':') {   /* a thread prefix "t1:" */
		uint64_t tid;
		w[0][strlen(w[0]) - 1] = 0;
		if (number(w[0] + 1, &tid) || tid >> l->tid_bits)
			return perr(p, "'%s:': a thread from t0 to t%u", w[0], (1u << l->tid_bits) - 1);
		in->tid = (uint8_t)tid;
		w++, n--;
	}
	if (!n)
		return perr(p, "an instruction is missing after the thread");
	if (strcmp(w[0], ".insn") == 0) {
		if (n != 2 || strncmp(w[1], "0x", 2) != 0 || strlen(w[1]) - 2 > 2 * l->bytes)
			return perr(p, ".insn: expected one 0x hexadecimal word of at most %u bytes", l->bytes);
		memset(raw, 0, l->bytes);
		const char *h = w[1] + 2;
		size_t nd = strlen(h);
		for (size_t i = 0; i < nd; i++) {
			char c = (char)tolower((unsigned char)h[nd - 1 - i]);
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
			if (d < 0)
				return perr(p, ".insn '%s': not hexadecimal", w[1]);
			raw[i / 2] |= (uint8_t)(d << (4 * (i % 2)));
		}
		*is_raw = 1;
		return TTX_OK;
	}
	int op = -1;
	for (int k = 0; k < 16; k++)
		if (ops[k].mnemonic && strcmp(ops[k].mnemonic, w[0]) == 0)
			op = k;
	if (strcmp(w[0], "nop") == 0) {   /* a wait for its own thread */
		if (n != 1)
			return perr(p, "nop takes no operands");
		in->opcode = TCU_WAIT, in->op[0] = in->tid;
		return TTX_OK;
	}
	if (op < 0)
		return perr(p, "'%s' is not an instruction (wait, nop, matmul, datamove, loadweights, simd, loadlut, "
		            "configure, .insn)", w[0]);
	in->opcode = (uint8_t)op;
	const struct op_info *o = &ops[op];
	/* trailing flag words */
	while (n > 1) {
		int f = -1;
		for (int k = 0; k < 4; k++)
			if (o->flag[k][0] && strcmp(o->flag[k], w[n - 1]) == 0)
				f = k;
		if (f < 0)
			break;
		if (in->flags >> f & 1)
			return perr(p, "'%s' given twice", w[n - 1]);
		in->flags |= (uint8_t)(1u << f);
		n--;
	}
	enum ttx_status st = TTX_OK;
	unsigned lb = l->local_bits, ls = l->stride0_bits, ob = l->other_bits, os = l->stride1_bits;
#define WANT(k, word) \
	if (n <= (k) || strcmp(w[k], word) != 0) \
		return perr(p, "%s: expected '%s' as word %d (%s)", o->mnemonic, word, (k) + 1, usage[op]);
	static const char *const usage[16] = {
		[TCU_WAIT] = "wait TID", [TCU_MATMUL] = "matmul local A[@S] acc A[@S] count N [accumulate] [zeroes]",
		[TCU_DATAMOVE] = "datamove KIND local A[@S] dram0|dram1|acc A[@S] count N",
		[TCU_LOADWEIGHTS] = "loadweights local A[@S] count N [zeroes]",
		[TCU_SIMD] = "simd OP LEFT RIGHT DEST w=A r=A [read] [write] [accumulate]",
		[TCU_LOADLUT] = "loadlut local A[@S] table T", [TCU_CONFIGURE] = "configure REGISTER VALUE",
	};
	switch (op) {
	case TCU_WAIT:
		if (n != 2)
			return perr(p, "expected %s", usage[op]);
		return value_field(p, w[1], l->op_bits[0], &in->op[0], "thread");
	case TCU_MATMUL:
		if (n != 7)
			return perr(p, "expected %s", usage[op]);
		WANT(1, "local") WANT(3, "acc") WANT(5, "count")
		if ((st = operand(p, w[2], lb, ls, &in->op[0], "local")) || (st = operand(p, w[4], ob, os, &in->op[1], "acc")))
			return st;
		return count_field(p, w[6], l->op_bits[2], &in->op[2]);
	case TCU_DATAMOVE: {
		if (n != 8)
			return perr(p, "expected %s", usage[op]);
		int kind = -1;
		for (int k = 0; k < 16; k++)
			if (moves[k].word && strcmp(moves[k].word, w[1]) == 0)
				kind = k;
		if (kind < 0)
			return perr(p, "datamove kind '%s': expected dram0>local, local>dram0, dram1>local, local>dram1, "
			            "acc>local, local>acc or local>acc+", w[1]);
		in->flags = (uint8_t)kind;
		WANT(2, "local") WANT(4, moves[kind].other) WANT(6, "count")
		if ((st = operand(p, w[3], lb, ls, &in->op[0], "local")) ||
		    (st = operand(p, w[5], ob, os, &in->op[1], moves[kind].other)))
			return st;
		return count_field(p, w[7], l->op_bits[2], &in->op[2]);
	}
	case TCU_LOADWEIGHTS:
		if (n != 5)
			return perr(p, "expected %s", usage[op]);
		WANT(1, "local") WANT(3, "count")
		if ((st = operand(p, w[2], lb, ls, &in->op[0], "local")))
			return st;
		return count_field(p, w[4], l->op_bits[1], &in->op[1]);
	case TCU_SIMD: {
		if (n != 7)
			return perr(p, "expected %s", usage[op]);
		int alu = -1;
		for (int k = 0; k < TCU_ALU_COUNT; k++)
			if (strcmp(alu_names[k], w[1]) == 0)
				alu = k;
		if (alu < 0)
			return perr(p, "simd operation '%s' is not one (noop, zero, move, not, and, or, increment, decrement, "
			            "add, subtract, multiply, abs, greater, greater_equal, min, max, lookup)", w[1]);
		unsigned left, right, dest, r = l->reg_bits;
		if ((st = reg_field(p, w[2], 0, l->regs, &left)) || (st = reg_field(p, w[3], 0, l->regs, &right)) ||
		    (st = reg_field(p, w[4], 1, l->regs, &dest)))
			return st;
		if (strncmp(w[5], "w=", 2) || strncmp(w[6], "r=", 2))
			return perr(p, "expected %s", usage[op]);
		if ((st = value_field(p, w[5] + 2, l->op_bits[0], &in->op[0], "write address")) ||
		    (st = value_field(p, w[6] + 2, l->op_bits[1], &in->op[1], "read address")))
			return st;
		uint64_t s = (uint64_t)alu << 3 * r | (uint64_t)left << 2 * r | (uint64_t)right << r | dest;
		if (l->op_bits[2] < 64 && s >> l->op_bits[2])
			return perr(p, "simd %s does not fit this architecture's %u-bit sub-instruction field", w[1],
			            l->op_bits[2]);
		in->op[2] = s;
		return TTX_OK;
	}
	case TCU_LOADLUT:
		if (n != 5)
			return perr(p, "expected %s", usage[op]);
		WANT(1, "local") WANT(3, "table")
		if ((st = operand(p, w[2], lb, ls, &in->op[0], "local")))
			return st;
		return value_field(p, w[4], l->op_bits[1], &in->op[1], "table");
	case TCU_CONFIGURE: {
		if (n != 3)
			return perr(p, "expected %s", usage[op]);
		int reg = -1;
		for (int k = 0; k < TCU_CFG_COUNT; k++)
			if (cfg_names[k] && strcmp(cfg_names[k], w[1]) == 0)
				reg = k;
		uint64_t v;
		if (reg < 0 && number(w[1], &v) == 0 && valid_cfg(v))
			reg = (int)v;
		if (reg < 0)
			return perr(p, "configure register '%s': expected dram0_offset, dram0_cache, dram1_offset, dram1_cache, "
			            "timeout, tracepoint, program_counter or sample_interval", w[1]);
		in->op[0] = (uint64_t)reg;
		return value_field(p, w[2], l->op_bits[1], &in->op[1], "value");
	}
	}
#undef WANT
	return perr(p, "'%s': not assembled (a ttx bug)", w[0]);
}

enum ttx_status ttx_tcu_assemble(const struct ttx_tcu_arch *a, const char *text, size_t len, const char *name,
                                 void **prog, size_t *prog_len, char *err, size_t errlen)
{
	struct parser p = { name ? name : "program", 0, err, errlen };
	if (!a || !prog || !prog_len || (!text && len)) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_tcu_assemble: an argument is NULL");
		return TTX_EINVAL;
	}
	*prog = NULL, *prog_len = 0;
	struct tcu_layout l;
	tcu_layout_of(a, &l);
	uint8_t *out = NULL;
	size_t n = 0, cap = 0;
	const char *s = text, *end = text + len;
	enum ttx_status st = TTX_OK;
	while (s < end && st == TTX_OK) {
		p.line++;
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t ll = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char line[512];
		if (ll >= sizeof(line)) {
			st = perr(&p, "a line of more than %zu characters", sizeof(line) - 1);
			break;
		}
		memcpy(line, s, ll);
		line[ll] = 0;
		s += ll + (nl ? 1 : 0);
		for (char *c = line; *c; c++)
			if (*c == ';' || *c == '#') {
				*c = 0;
				break;
			}
		char *w[MAX_WORDS];
		int nw = 0;
		for (char *tok = strtok(line, " \t\r,"); tok; tok = strtok(NULL, " \t\r,")) {
			if (nw == MAX_WORDS) {
				st = perr(&p, "more than %d words", MAX_WORDS);
				break;
			}
			w[nw++] = tok;
		}
		if (st != TTX_OK || !nw)
			continue;
		struct tcu_insn in;
		uint8_t raw[64];
		int is_raw;
		if ((st = assemble_line(&p, &l, w, nw, &in, raw, &is_raw)) != TTX_OK)
			break;
		if (n + l.bytes > cap) {
			cap = cap ? cap * 2 : 256;
			uint8_t *t = realloc(out, cap);
			if (!t) {
				st = perr(&p, "out of memory");
				break;
			}
			out = t;
		}
		if (is_raw)
			memcpy(out + n, raw, l.bytes);
		else
			tcu_encode(&l, &in, out + n);
		n += l.bytes;
	}
	if (st != TTX_OK) {
		free(out);
		return st;
	}
	*prog = out ? (void *)out : malloc(1);
	*prog_len = n;
	return *prog ? TTX_OK : TTX_ENOMEM;
}
