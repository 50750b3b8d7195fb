/* Assembler: text -> instruction words, driven by the table in src/isa.def.
 *
 * One instruction per line:  MNEMONIC a, b, c   with the operands in the order
 * of tt-llk's TT_OP_<MNEMONIC>(...) macro (descending start bit).  The macro
 * spellings TTI_X(...), TT_X(...) and TT_OP_X(...) are accepted as well, with an
 * optional trailing ';', so sequences can be pasted from LLK sources.  Operands
 * are integer expressions: decimal, 0x hex, 0b binary, 0-prefixed octal (as in
 * C), ( ) ~ * + - << >> & ^ |.
 * A negative operand is stored in two's complement when it fits the field.
 * Comments start with '#' or '//'.  Directives: .word W, .thread N,
 * .mmio ADDR, VALUE (docs/assembly.md). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"
#include "isa.h"

struct ttx_program {
	struct ttx_item *items;
	size_t n, cap;
};

struct lexer {
	const char *file;
	unsigned line;
	const char *start;      /* beginning of the line, for columns */
	const char *p, *end;
	char *err;
	size_t errlen;
	int failed;
};

static int fail(struct lexer *lx, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct lexer *lx, const char *at, const char *fmt, ...)
{
	if (lx->failed)
		return -1;
	lx->failed = 1;
	int n = snprintf(lx->err, lx->errlen, "%s:%u:%d: ", lx->file, lx->line, (int)(at - lx->start) + 1);
	if (n < 0 || (size_t)n >= lx->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(lx->err + n, lx->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_space(struct lexer *lx)
{
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r'))
		lx->p++;
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* ---- Integer expressions (64-bit, so field overflow is detected) ---- */

static int parse_expr(struct lexer *lx, int64_t *v);

static int parse_primary(struct lexer *lx, int64_t *v)
{
	skip_space(lx);
	const char *at = lx->p;
	if (lx->p >= lx->end)
		return fail(lx, at, "expected a number");
	char c = *lx->p;
	if (c == '(') {
		lx->p++;
		if (parse_expr(lx, v))
			return -1;
		skip_space(lx);
		if (lx->p >= lx->end || *lx->p != ')')
			return fail(lx, lx->p, "expected ')'");
		lx->p++;
		return 0;
	}
	if (c == '-' || c == '~' || c == '+') {
		lx->p++;
		if (parse_primary(lx, v))
			return -1;
		if (c == '-')
			*v = -*v;
		else if (c == '~')
			*v = ~*v;
		return 0;
	}
	if (!isdigit((unsigned char)c)) {
		if (is_ident((unsigned char)c)) {
			const char *s = lx->p;
			while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
				lx->p++;
			return fail(lx, at, "unknown symbol '%.*s' (operands must be numbers)", (int)(lx->p - s), s);
		}
		return fail(lx, at, "expected a number, found '%c'", c);
	}
	int base = 10;
	if (c == '0' && lx->p + 1 < lx->end && (lx->p[1] == 'x' || lx->p[1] == 'X'))
		base = 16, lx->p += 2;
	else if (c == '0' && lx->p + 1 < lx->end && (lx->p[1] == 'b' || lx->p[1] == 'B'))
		base = 2, lx->p += 2;
	else if (c == '0' && lx->p + 1 < lx->end && isdigit((unsigned char)lx->p[1]))
		base = 8;   /* as in C, so that pasted LLK code keeps its values */
	uint64_t acc = 0;
	int digits = 0;
	while (lx->p < lx->end && is_ident((unsigned char)*lx->p)) {
		int d = *lx->p;
		int dv = isdigit(d) ? d - '0' : isxdigit(d) ? (tolower(d) - 'a' + 10) : 99;
		if (dv >= base) {
			/* Accept C integer suffixes (1u, 0x10UL) as pasted from LLK code. */
			if (tolower(d) == 'u' || tolower(d) == 'l') {
				while (lx->p < lx->end && (tolower((unsigned char)*lx->p) == 'u' || tolower((unsigned char)*lx->p) == 'l'))
					lx->p++;
				break;
			}
			return fail(lx, lx->p, "invalid digit '%c' in number", d);
		}
		acc = acc * (uint64_t)base + (uint64_t)dv;
		if (acc > 0xFFFFFFFFFFull)
			return fail(lx, at, "number too large");
		lx->p++;
		digits++;
	}
	if (!digits)
		return fail(lx, at, "expected digits after the base prefix");
	*v = (int64_t)acc;
	return 0;
}

/* Precedence climbing over C's binary operators that make sense here. */
static int binop_prec(const char *p, const char *end, int *len)
{
	if (p + 1 < end && ((p[0] == '<' && p[1] == '<') || (p[0] == '>' && p[1] == '>'))) {
		*len = 2;
		return 4;
	}
	*len = 1;
	switch (*p) {
	case '*': return 6;
	case '+': case '-': return 5;
	case '&': return 3;
	case '^': return 2;
	case '|': return 1;
	default: return 0;
	}
}

static int parse_binary(struct lexer *lx, int64_t *v, int min_prec)
{
	if (parse_primary(lx, v))
		return -1;
	for (;;) {
		skip_space(lx);
		if (lx->p >= lx->end)
			return 0;
		int len, prec = binop_prec(lx->p, lx->end, &len);
		if (!prec || prec < min_prec)
			return 0;
		const char *op = lx->p;
		lx->p += len;
		int64_t rhs;
		if (parse_binary(lx, &rhs, prec + 1))
			return -1;
		switch (*op) {
		case '*':
			if (__builtin_mul_overflow(*v, rhs, v))
				return fail(lx, op, "value out of range");
			break;
		case '+': *v += rhs; break;
		case '-': *v -= rhs; break;
		case '&': *v &= rhs; break;
		case '^': *v ^= rhs; break;
		case '|': *v |= rhs; break;
		case '<':
		case '>':
			if (rhs < 0 || rhs > 40)
				return fail(lx, op, "shift count %lld out of range", (long long)rhs);
			if (*op == '<' && (*v > (0xFFFFFFFFFFll >> rhs) || *v < -(0xFFFFFFFFFFll >> rhs)))
				return fail(lx, op, "value out of range");
			*v = *op == '<' ? (int64_t)((uint64_t)*v << rhs) : *v >> rhs;
			break;
		}
		if (*v > 0xFFFFFFFFFFll || *v < -0xFFFFFFFFFFll)
			return fail(lx, op, "value out of range");
	}
}

static int parse_expr(struct lexer *lx, int64_t *v)
{
	return parse_binary(lx, v, 1);
}

/* Parse "a, b, c" up to ')' (if parens) or end of line; returns the count. */
static int parse_operands(struct lexer *lx, int64_t *vals, const char **pos, int max, int parens)
{
	int n = 0;
	skip_space(lx);
	if (lx->p >= lx->end || *lx->p == (parens ? ')' : ';'))
		return 0;
	for (;;) {
		skip_space(lx);
		if (n == max)
			return fail(lx, lx->p, "too many operands");
		pos[n] = lx->p;
		if (parse_expr(lx, &vals[n]))
			return -1;
		n++;
		skip_space(lx);
		if (lx->p < lx->end && *lx->p == ',') {
			lx->p++;
			continue;
		}
		return n;
	}
}

/* Whether a value too wide for tt-llk field f is what the documentation
   encodes there: the resulting word's documented layout has one field that
   covers all its bits (SETDMAREG_Immediate's 16-bit NewValue spans
   Payload_SigSel and Payload_SigSelSize; STOREIND_L1's 2-bit Size spans
   RegSizeSel and SizeSel), and the operands it spills into are zero.  This is
   what TT_OP_* macros, which add shifted operands, produce for LLK code. */
static int spill_is_documented(const struct ttx_insn_info *insn, unsigned i, uint64_t v, uint32_t rest)
{
	const struct ttx_field *f = &insn->fields[i];
	unsigned top = f->lo;
	while (top < 32 && (v >> (top - f->lo)) > 1)
		top++;   /* top = highest set bit */
	if (top >= 24)
		return 0;
	for (unsigned k = 0; k < i; k++)   /* fields above f come first */
		if (insn->fields[k].lo <= top && ttx_field_get(rest, &insn->fields[k]))
			return 0;
	const struct ttx_layout_info *l = ttx_isa_layout_of(rest | (uint32_t)v << f->lo);
	for (unsigned k = 0; l && k < l->nfields; k++)
		if (l->fields[k].lo <= f->lo && top < l->fields[k].lo + l->fields[k].width)
			return 1;
	return 0;
}

static int encode_fields(struct lexer *lx, const struct ttx_insn_info *insn, const int64_t *vals,
                         const char **pos, uint32_t *word)
{
	uint32_t w = (uint32_t)insn->opcode << 24;
	int spilled = -1;
	for (unsigned i = 0; i < insn->nfields; i++) {
		const struct ttx_field *f = &insn->fields[i];
		int64_t v = vals[i];
		int64_t max = ((int64_t)1 << f->width) - 1;
		if (v < 0 && v >= -((int64_t)1 << (f->width - 1)))
			v &= max;   /* two's complement within the field */
		if (v > max && v < ((int64_t)1 << (24 - f->lo)) && spilled < 0) {
			spilled = (int)i;   /* judged below, once the other operands are known */
			continue;
		}
		if (v < 0 || v > max)
			return fail(lx, pos[i], "%s operand %s = %lld out of range (%u bits: 0..%lld)",
			            insn->mnemonic, f->name, (long long)vals[i], f->width, (long long)max);
		w |= (uint32_t)v << f->lo;
	}
	if (spilled >= 0) {
		const struct ttx_field *f = &insn->fields[spilled];
		if (!spill_is_documented(insn, (unsigned)spilled, (uint64_t)vals[spilled], w))
			return fail(lx, pos[spilled], "%s operand %s = %lld out of range (%u bits: 0..%lld)",
			            insn->mnemonic, f->name, (long long)vals[spilled], f->width,
			            (long long)(((int64_t)1 << f->width) - 1));
		w |= (uint32_t)vals[spilled] << f->lo;
	}
	*word = w;
	return 0;
}

static void operand_list(const struct ttx_insn_info *insn, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < insn->nfields && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", insn->fields[i].name);
}

/* Whether the '(' at p opens a call-style operand list "X(a, b)": its
   matching ')' is followed only by blanks or ';'.  Otherwise, as in
   "SETC16 (1 << 2) + 3, 0", it belongs to the first operand. */
static int is_call(const char *p, const char *end)
{
	int depth = 0;
	for (; p < end; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			break;
	}
	if (p == end)
		return 1;   /* unbalanced: let the parser report it */
	for (p++; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r' && *p != ';')
			return 0;
	return 1;
}

/* Parse one instruction at lx->p (directives excluded). */
static int parse_insn(struct lexer *lx, uint32_t *word)
{
	skip_space(lx);
	const char *at = lx->p;
	const char *s = lx->p;
	while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
		lx->p++;
	size_t len = (size_t)(lx->p - s);
	if (!len)
		return fail(lx, at, "expected an instruction mnemonic");
	const char *name = s;
	int macro = 0;
	static const char *const prefixes[] = { "TT_OP_", "TTI_", "TT_" };
	for (unsigned i = 0; i < 3; i++) {
		size_t pl = strlen(prefixes[i]);
		if (len > pl && strncmp(s, prefixes[i], pl) == 0) {
			name += pl;
			len -= pl;
			macro = 1;
			break;
		}
	}
	const struct ttx_insn_info *insn = ttx_isa_find(name, len);
	if (!insn)
		return fail(lx, at, "unknown mnemonic '%.*s'", (int)(lx->p - s), s);
	const char *mnemonic_end = lx->p;
	skip_space(lx);
	int parens = 0;
	if (lx->p < lx->end && *lx->p == '(' && (macro || is_call(lx->p, lx->end))) {
		parens = 1;
		lx->p++;
	} else if (macro && insn->nfields) {
		return fail(lx, lx->p, "expected '(' after %.*s", (int)(mnemonic_end - s), s);
	}
	int64_t vals[16];
	const char *pos[16];
	int n = parse_operands(lx, vals, pos, 16, parens);
	if (n < 0)
		return -1;
	skip_space(lx);
	if (parens) {
		if (lx->p >= lx->end || *lx->p != ')')
			return fail(lx, lx->p, "expected ')' or ','");
		lx->p++;
		skip_space(lx);
	}
	if (lx->p < lx->end && *lx->p == ';') {
		lx->p++;
		skip_space(lx);
	}
	if (lx->p < lx->end)
		return fail(lx, lx->p, "unexpected '%c' after the operands", *lx->p);
	if (n != insn->nfields) {
		char ops[256];
		operand_list(insn, ops, sizeof(ops));
		return fail(lx, at, "%s takes %u operand%s (%s), got %d", insn->mnemonic, insn->nfields,
		            insn->nfields == 1 ? "" : "s", insn->nfields ? ops : "none", n);
	}
	return encode_fields(lx, insn, vals, pos, word);
}

static int program_add(struct ttx_program *p, const struct ttx_item *it)
{
	if (p->n == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 256;
		struct ttx_item *ni = realloc(p->items, ncap * sizeof(*ni));
		if (!ni)
			return -1;
		p->items = ni;
		p->cap = ncap;
	}
	p->items[p->n++] = *it;
	return 0;
}

/* Length of the line's content, comments removed. */
static const char *strip_comment(const char *p, const char *end)
{
	for (const char *q = p; q < end; q++) {
		if (*q == '#' || (*q == '/' && q + 1 < end && q[1] == '/'))
			return q;
	}
	return end;
}

static int parse_directive(struct lexer *lx, struct ttx_program *prog, unsigned *thread)
{
	const char *at = lx->p;
	lx->p++; /* '.' */
	const char *s = lx->p;
	while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
		lx->p++;
	size_t len = (size_t)(lx->p - s);
	int64_t v[2];
	const char *pos[2];
	int n = parse_operands(lx, v, pos, 2, 0);
	if (n < 0)
		return -1;
	skip_space(lx);
	if (lx->p < lx->end)
		return fail(lx, lx->p, "unexpected '%c'", *lx->p);
	struct ttx_item it = { .thread = *thread, .line = lx->line };
	if (len == 4 && strncmp(s, "word", 4) == 0) {
		if (n != 1)
			return fail(lx, at, ".word takes one operand");
		if (v[0] < 0 || v[0] > 0xFFFFFFFFll)
			return fail(lx, pos[0], ".word value out of range (32 bits)");
		it.kind = TTX_ITEM_INSN;
		it.word = (uint32_t)v[0];
	} else if (len == 6 && strncmp(s, "thread", 6) == 0) {
		if (n != 1)
			return fail(lx, at, ".thread takes one operand");
		if (v[0] < 0 || v[0] >= TTX_THREADS)
			return fail(lx, pos[0], ".thread %lld: threads are 0, 1 and 2", (long long)v[0]);
		*thread = (unsigned)v[0];
		return 0;
	} else if (len == 4 && strncmp(s, "mmio", 4) == 0) {
		if (n != 2)
			return fail(lx, at, ".mmio takes two operands (ADDR, VALUE)");
		if (v[0] < 0 || v[0] > 0xFFFFFFFFll || (v[0] & 3))
			return fail(lx, pos[0], ".mmio address must be a 4-byte aligned 32-bit address");
		if (v[1] < -0x80000000ll || v[1] > 0xFFFFFFFFll)
			return fail(lx, pos[1], ".mmio value out of range (32 bits)");
		it.kind = TTX_ITEM_MMIO;
		it.addr = (uint32_t)v[0];
		it.value = (uint32_t)v[1];
	} else {
		return fail(lx, at, "unknown directive '.%.*s' (.word, .thread, .mmio)", (int)len, s);
	}
	if (program_add(prog, &it))
		return fail(lx, at, "out of memory");
	return 0;
}

enum ttx_status ttx_program_parse(const char *text, size_t len, const char *filename,
                                  struct ttx_program **out, char *err, size_t errlen)
{
	struct ttx_program *prog = calloc(1, sizeof(*prog));
	struct lexer lx = { .file = filename ? filename : "<input>", .err = err, .errlen = errlen };
	unsigned thread = 0;
	const char *p = text, *end = text + len;
	*out = NULL;
	if (!prog) {
		snprintf(err, errlen, "out of memory");
		return TTX_ENOMEM;
	}
	while (p < end && !lx.failed) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		lx.line++;
		lx.start = lx.p = p;
		lx.end = strip_comment(p, eol);
		if (memchr(p, '\0', (size_t)(eol - p))) {
			fail(&lx, memchr(p, '\0', (size_t)(eol - p)), "NUL byte in assembler text");
			break;
		}
		skip_space(&lx);
		if (lx.p < lx.end) {
			if (*lx.p == '.') {
				parse_directive(&lx, prog, &thread);
			} else {
				struct ttx_item it = { .kind = TTX_ITEM_INSN, .thread = thread, .line = lx.line };
				if (parse_insn(&lx, &it.word) == 0 && program_add(prog, &it))
					fail(&lx, lx.p, "out of memory");
			}
		}
		p = eol < end ? eol + 1 : end;
	}
	if (lx.failed) {
		ttx_program_free(prog);
		return TTX_EINVAL;
	}
	*out = prog;
	return TTX_OK;
}

enum ttx_status ttx_asm_line(const char *text, uint32_t *word, char *err, size_t errlen)
{
	size_t len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;   /* lines as fgets/getline return them */
	struct lexer lx = { .file = "<line>", .line = 1, .start = text, .p = text,
	                    .end = strip_comment(text, text + len), .err = err, .errlen = errlen };
	skip_space(&lx);
	if (lx.p < lx.end && *lx.p == '.') {
		struct ttx_program prog = { 0 };
		unsigned thread = 0;
		int r = parse_directive(&lx, &prog, &thread);
		int ok = r == 0 && prog.n == 1 && prog.items[0].kind == TTX_ITEM_INSN;
		if (ok)
			*word = prog.items[0].word;
		else if (r == 0)
			fail(&lx, text, "only .word is allowed here");
		free(prog.items);
		return ok ? TTX_OK : TTX_EINVAL;
	}
	return parse_insn(&lx, word) ? TTX_EINVAL : TTX_OK;
}

struct ttx_program *ttx_program_from_words(const uint32_t *words, size_t n, unsigned thread)
{
	struct ttx_program *prog = calloc(1, sizeof(*prog));
	if (!prog)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct ttx_item it = { .kind = TTX_ITEM_INSN, .thread = thread, .word = words[i] };
		if (program_add(prog, &it)) {
			ttx_program_free(prog);
			return NULL;
		}
	}
	return prog;
}

size_t ttx_program_size(const struct ttx_program *p)
{
	return p->n;
}

const struct ttx_item *ttx_program_item(const struct ttx_program *p, size_t i)
{
	return i < p->n ? &p->items[i] : NULL;
}

void ttx_program_free(struct ttx_program *p)
{
	if (!p)
		return;
	free(p->items);
	free(p);
}
