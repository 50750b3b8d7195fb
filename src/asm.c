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
 * .mmio ADDR, VALUE, and for parameterised programs (the kernel library)
 * .equ NAME, EXPR, .rept COUNT [, INDEX] ... .endr, .if EXPR ... [.else ...]
 * .endif, .include "FILE" (docs/assembly.md). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"
#include "isa.h"
#include "tile.h"

struct ttx_program {
	struct ttx_item *items;
	size_t n, cap;
	char **strings;         /* file names and included texts the items point into */
	size_t nstrings;
};

struct symbol {
	char *name;
	size_t len;
	int64_t value;
};

/* Symbols of one parse: the caller's, .equ's, and .rept indices (a stack). */
struct symtab {
	struct symbol *v;
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
	int depth;              /* expression nesting */
	const struct symtab *syms;
	struct mnemonics *mn;   /* the parse's lookup cache, or NULL */
};

/* Mnemonics already looked up in a parse: kernels repeat a few dozen of
   them many thousand times, and ttx_isa_find scans the table. */
struct mnemonics {
	struct {
		char name[16];
		const struct ttx_insn_info *info;
	} e[256];
};

static const struct ttx_insn_info *find_mnemonic(struct mnemonics *mn, const char *name, size_t len)
{
	if (!mn || len >= 16)
		return ttx_isa_find(name, len);
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	for (unsigned k = 0; k < 256; k++) {
		unsigned i = (h + k) & 255;
		if (!mn->e[i].info) {
			const struct ttx_insn_info *info = ttx_isa_find(name, len);
			if (info) {
				memcpy(mn->e[i].name, name, len);
				mn->e[i].name[len] = '\0';
				mn->e[i].info = info;
			}
			return info;
		}
		if (strncmp(mn->e[i].name, name, len) == 0 && mn->e[i].name[len] == '\0')
			return mn->e[i].info;
	}
	return ttx_isa_find(name, len);
}

/* Deeper expressions (parentheses, unary operators) are refused rather
   than recursed into without bound. */
#define MAX_EXPR_DEPTH 200

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
static int parse_number(struct lexer *lx, int64_t *v);

static const struct symbol *find_symbol(const struct symtab *t, const char *name, size_t len)
{
	for (size_t i = t ? t->n : 0; i-- > 0;)   /* the innermost first */
		if (t->v[i].len == len && memcmp(t->v[i].name, name, len) == 0)
			return &t->v[i];
	return NULL;
}

static int parse_primary(struct lexer *lx, int64_t *v)
{
	skip_space(lx);
	const char *at = lx->p;
	if (lx->p >= lx->end)
		return fail(lx, at, "expected a number");
	if (++lx->depth > MAX_EXPR_DEPTH)
		return fail(lx, at, "expression nests too deeply (more than %d levels)", MAX_EXPR_DEPTH);
	int r = 0;
	char c = *lx->p;
	if (c == '(') {
		lx->p++;
		if (parse_expr(lx, v))
			return -1;
		skip_space(lx);
		if (lx->p >= lx->end || *lx->p != ')')
			return fail(lx, lx->p, "expected ')'");
		lx->p++;
	} else if (c == '-' || c == '~' || c == '+' || c == '!') {
		lx->p++;
		if (parse_primary(lx, v))
			return -1;
		if (c == '-')
			*v = -*v;
		else if (c == '~')
			*v = ~*v;
		else if (c == '!')
			*v = !*v;
	} else if (isdigit((unsigned char)c)) {
		r = parse_number(lx, v);
	} else if (is_ident((unsigned char)c)) {
		const char *s = lx->p;
		while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
			lx->p++;
		if (lx->p - s == 7 && strncmp(s, "defined", 7) == 0) {   /* defined(NAME) */
			skip_space(lx);
			if (lx->p >= lx->end || *lx->p != '(')
				return fail(lx, lx->p, "expected '(' after defined");
			lx->p++;
			skip_space(lx);
			const char *n = lx->p;
			while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
				lx->p++;
			*v = find_symbol(lx->syms, n, (size_t)(lx->p - n)) != NULL;
			skip_space(lx);
			if (lx->p >= lx->end || *lx->p != ')')
				return fail(lx, lx->p, "expected ')'");
			lx->p++;
			lx->depth--;
			return 0;
		}
		const struct symbol *sym = find_symbol(lx->syms, s, (size_t)(lx->p - s));
		if (!sym)
			return fail(lx, at, "unknown symbol '%.*s' (%s)", (int)(lx->p - s), s,
			            lx->syms ? "define it with .equ" : "operands must be numbers");
		*v = sym->value;
	} else {
		return fail(lx, at, "expected a number, found '%c'", c);
	}
	lx->depth--;
	return r;
}

static int parse_number(struct lexer *lx, int64_t *v)
{
	const char *at = lx->p;
	char c = *lx->p;
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

/* Precedence climbing over C's binary operators (C's precedence). */
static int binop_prec(const char *p, const char *end, int *len)
{
	char a = *p, b = p + 1 < end ? p[1] : 0;
	*len = 2;
	if ((a == '<' && b == '<') || (a == '>' && b == '>'))
		return 8;
	if ((a == '<' || a == '>') && b == '=')
		return 7;
	if ((a == '=' || a == '!') && b == '=')
		return 6;
	if (a == '&' && b == '&')
		return 2;
	if (a == '|' && b == '|')
		return 1;
	*len = 1;
	switch (a) {
	case '*': case '/': case '%': return 10;
	case '+': case '-': return 9;
	case '<': case '>': return 7;
	case '&': return 5;
	case '^': return 4;
	case '|': return 3;
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
		if (++lx->depth > MAX_EXPR_DEPTH)
			return fail(lx, op, "expression nests too deeply (more than %d levels)", MAX_EXPR_DEPTH);
		if (parse_binary(lx, &rhs, prec + 1))
			return -1;
		lx->depth--;
		switch (len == 2 ? op[0] * 256 + op[1] : op[0]) {
		case '*':
			if (__builtin_mul_overflow(*v, rhs, v))
				return fail(lx, op, "value out of range");
			break;
		case '/':
		case '%':
			if (rhs == 0)
				return fail(lx, op, "division by zero");
			*v = *op == '/' ? *v / rhs : *v % rhs;
			break;
		case '+': *v += rhs; break;
		case '-': *v -= rhs; break;
		case '&': *v &= rhs; break;
		case '^': *v ^= rhs; break;
		case '|': *v |= rhs; break;
		case '<': *v = *v < rhs; break;
		case '>': *v = *v > rhs; break;
		case '<' * 256 + '=': *v = *v <= rhs; break;
		case '>' * 256 + '=': *v = *v >= rhs; break;
		case '=' * 256 + '=': *v = *v == rhs; break;
		case '!' * 256 + '=': *v = *v != rhs; break;
		case '&' * 256 + '&': *v = *v && rhs; break;
		case '|' * 256 + '|': *v = *v || rhs; break;
		case '<' * 256 + '<':
		case '>' * 256 + '>':
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
	const struct ttx_insn_info *insn = find_mnemonic(lx->mn, name, len);
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

/* ---- Programs ---- */

/* One line of a text being assembled. */
struct line {
	const char *start, *end;   /* end: before the comment */
	unsigned no;
	const char *file;
};

struct parser {
	struct ttx_program *prog;
	struct symtab syms;
	unsigned thread;
	char *err;
	size_t errlen;
	int failed;
	int include_depth;
	struct mnemonics *mn;
	uint64_t lines_done;    /* source lines handled, every .rept iteration counted */
};

#define MAX_INCLUDE_DEPTH 8
/* Runaway .rept: a program of 1 M items (the kernel library's largest is
   about 50 k), or 16 M lines handled (bodies that emit nothing, such as
   .set loops, expand too), is refused: assembling stays within seconds. */
#define MAX_ITEMS (1u << 20)
#define MAX_LINES_DONE (16u << 20)

static char *keep_string(struct ttx_program *p, const char *s, size_t len)
{
	char **ns = realloc(p->strings, (p->nstrings + 1) * sizeof(*ns));
	if (!ns)
		return NULL;
	p->strings = ns;
	char *c = malloc(len + 1);
	if (!c)
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->strings[p->nstrings++] = c;
	return c;
}

static int push_symbol(struct symtab *t, const char *name, size_t len, int64_t value)
{
	if (t->n == t->cap) {
		size_t ncap = t->cap ? 2 * t->cap : 32;
		struct symbol *nv = realloc(t->v, ncap * sizeof(*nv));
		if (!nv)
			return -1;
		t->v = nv;
		t->cap = ncap;
	}
	char *n = malloc(len + 1);
	if (!n)
		return -1;
	memcpy(n, name, len);
	n[len] = '\0';
	t->v[t->n].name = n;
	t->v[t->n].len = len;
	t->v[t->n++].value = value;
	return 0;
}

/* Drop the symbols defined since the table had n of them. */
static void pop_symbols(struct symtab *t, size_t n)
{
	while (t->n > n)
		free(t->v[--t->n].name);
}

static void lexer_at(struct parser *ps, struct lexer *lx, const struct line *l)
{
	*lx = (struct lexer) { .file = l->file, .line = l->no, .start = l->start, .p = l->start, .end = l->end,
	                       .err = ps->err, .errlen = ps->errlen, .failed = ps->failed, .syms = &ps->syms,
	                       .mn = ps->mn };
	skip_space(lx);
}

/* The directive a line holds ("rept" for ".rept 4"), or 0 length. */
static size_t directive_of(const struct line *l, const char **name)
{
	const char *p = l->start;
	while (p < l->end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (p >= l->end || *p != '.')
		return 0;
	*name = ++p;
	while (p < l->end && is_ident((unsigned char)*p))
		p++;
	return (size_t)(p - *name);
}

static int is_directive(const struct line *l, const char *want)
{
	const char *name;
	size_t len = directive_of(l, &name);
	return len == strlen(want) && strncmp(name, want, len) == 0;
}

/* The line that closes the block opened at lines[i] (.rept: .endr; .if:
   .else or .endif, whichever comes first at the same depth), or -1. */
static long block_end(const struct line *lines, size_t i, size_t n, const char *open, const char *close,
                      const char *alt)
{
	int depth = 0;
	for (size_t j = i + 1; j < n; j++) {
		if (is_directive(&lines[j], open))
			depth++;
		else if (depth == 0 && (is_directive(&lines[j], close) || (alt && is_directive(&lines[j], alt))))
			return (long)j;
		else if (is_directive(&lines[j], close))
			depth--;
	}
	return -1;
}

static int add_item(struct parser *ps, struct lexer *lx, const char *at, const struct ttx_item *it)
{
	if (ps->prog->n >= MAX_ITEMS)
		return fail(lx, at, "the program has more than %u instructions and stores (a runaway .rept?)", MAX_ITEMS);
	if (program_add(ps->prog, it))
		return fail(lx, at, "out of memory");
	return 0;
}

static int parse_lines(struct parser *ps, const struct line *lines, size_t from, size_t to);
static int parse_text(struct parser *ps, const char *text, size_t len, const char *file);

/* .include "NAME": a kernel of the library (kernels/NAME, built in), or a
   file relative to the including one. */
static int include_file(struct parser *ps, struct lexer *lx, const char *at)
{
	skip_space(lx);
	if (lx->p >= lx->end || *lx->p != '"')
		return fail(lx, lx->p, ".include takes a file name in double quotes");
	const char *name = ++lx->p;
	while (lx->p < lx->end && *lx->p != '"')
		lx->p++;
	if (lx->p >= lx->end)
		return fail(lx, name, "missing closing '\"'");
	size_t nlen = (size_t)(lx->p - name);
	lx->p++;
	skip_space(lx);
	if (lx->p < lx->end)
		return fail(lx, lx->p, "unexpected '%c' after the file name", *lx->p);
	if (ps->include_depth >= MAX_INCLUDE_DEPTH)
		return fail(lx, at, ".include nests more than %d deep", MAX_INCLUDE_DEPTH);
	char path[4096];
	size_t tlen;
	const char *builtin = NULL;
	snprintf(path, sizeof(path), "%.*s", (int)nlen, name);
	if (ttx_kernel_find(path, &builtin, &tlen) == 0) {
		char *file = keep_string(ps->prog, path, strlen(path));
		if (!file)
			return fail(lx, at, "out of memory");
		ps->include_depth++;
		int r = parse_text(ps, builtin, tlen, file);
		ps->include_depth--;
		return r;
	}
	const char *slash = strrchr(lx->file, '/');
	if (name[0] != '/' && slash)
		snprintf(path, sizeof(path), "%.*s/%.*s", (int)(slash - lx->file), lx->file, (int)nlen, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(lx, name, "cannot open '%s' (not a library kernel, and no such file)", path);
	char *text = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n == cap) {
			char *nt = realloc(text, cap ? 2 * cap : 4096);
			if (!nt || (cap && cap >= (64u << 20))) {
				free(nt ? nt : text);
				fclose(f);
				return fail(lx, name, "'%s' is too large or out of memory", path);
			}
			text = nt, cap = cap ? 2 * cap : 4096;
		}
		size_t got = fread(text + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	char *kept = keep_string(ps->prog, text, n), *file = keep_string(ps->prog, path, strlen(path));
	free(text);
	if (!kept || !file)
		return fail(lx, at, "out of memory");
	ps->include_depth++;
	int r = parse_text(ps, kept, n, file);
	ps->include_depth--;
	return r;
}

/* One directive other than the block ones. */
static int parse_directive(struct parser *ps, struct lexer *lx)
{
	const char *at = lx->p;
	lx->p++; /* '.' */
	const char *s = lx->p;
	while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
		lx->p++;
	size_t len = (size_t)(lx->p - s);
	if (len == 7 && strncmp(s, "include", 7) == 0)
		return include_file(ps, lx, at);
	if ((len == 3 && strncmp(s, "equ", 3) == 0) || (len == 3 && strncmp(s, "set", 3) == 0)) {
		skip_space(lx);
		const char *n = lx->p;
		while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
			lx->p++;
		size_t nlen = (size_t)(lx->p - n);
		if (!nlen || isdigit((unsigned char)*n))
			return fail(lx, n, ".%.*s takes a name and a value", (int)len, s);
		skip_space(lx);
		if (lx->p >= lx->end || *lx->p != ',')
			return fail(lx, lx->p, "expected ',' after the name");
		lx->p++;
		int64_t v;
		if (parse_expr(lx, &v))
			return -1;
		skip_space(lx);
		if (lx->p < lx->end)
			return fail(lx, lx->p, "unexpected '%c'", *lx->p);
		/* .equ defines a constant; .set may give a symbol a new value */
		struct symbol *old = (struct symbol *)find_symbol(&ps->syms, n, nlen);
		if (old && old->value != v && s[0] == 'e')
			return fail(lx, n, "'%.*s' is already defined as %lld", (int)nlen, n, (long long)old->value);
		if (old)
			old->value = v;
		else if (push_symbol(&ps->syms, n, nlen, v))
			return fail(lx, at, "out of memory");
		return 0;
	}
	int64_t v[2];
	const char *pos[2];
	int n = parse_operands(lx, v, pos, 2, 0);
	if (n < 0)
		return -1;
	skip_space(lx);
	if (lx->p < lx->end)
		return fail(lx, lx->p, "unexpected '%c'", *lx->p);
	struct ttx_item it = { .thread = ps->thread, .line = lx->line, .file = lx->file };
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
		ps->thread = (unsigned)v[0];
		return 0;
	} else if (len == 4 && strncmp(s, "mmio", 4) == 0) {
		if (n != 2)
			return fail(lx, at, ".mmio takes two operands (ADDR, VALUE)");
		if (v[0] < 0 || v[0] > 0xFFFFFFFFll || (v[0] & 3))
			return fail(lx, pos[0], ".mmio address must be a 4-byte aligned 32-bit address");
		const char *why = ttx_mmio_store_problem((uint32_t)v[0]);
		if (why)   /* reported here, with its place, not when the store runs */
			return fail(lx, pos[0], ".mmio 0x%08llX: %s", (long long)v[0], why);
		if (v[1] < -0x80000000ll || v[1] > 0xFFFFFFFFll)
			return fail(lx, pos[1], ".mmio value out of range (32 bits)");
		it.kind = TTX_ITEM_MMIO;
		it.addr = (uint32_t)v[0];
		it.value = (uint32_t)v[1];
	} else {
		return fail(lx, at, "unknown directive '.%.*s' (.word, .thread, .mmio, .equ, .rept, .if, .include)",
		            (int)len, s);
	}
	return add_item(ps, lx, at, &it);
}

/* .rept COUNT [, INDEX] at lines[i] to its .endr at lines[e]. */
static int parse_rept(struct parser *ps, struct lexer *lx, const struct line *lines, size_t i, size_t e)
{
	const char *at = lx->p;
	lx->p += 5;   /* ".rept" */
	int64_t count;
	if (parse_expr(lx, &count))
		return -1;
	if (count < 0 || count > 1000000)
		return fail(lx, at, ".rept count %lld out of range (0..1000000)", (long long)count);
	skip_space(lx);
	const char *name = NULL;
	size_t nlen = 0;
	if (lx->p < lx->end && *lx->p == ',') {
		lx->p++;
		skip_space(lx);
		name = lx->p;
		while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
			lx->p++;
		nlen = (size_t)(lx->p - name);
		if (!nlen || isdigit((unsigned char)*name))
			return fail(lx, name, "expected the name of the index after ','");
		skip_space(lx);
	}
	if (lx->p < lx->end)
		return fail(lx, lx->p, "unexpected '%c'", *lx->p);
	/* The index and the symbols the body defines are local to an iteration. */
	size_t mark = ps->syms.n;
	for (int64_t k = 0; k < count; k++) {
		if (name && push_symbol(&ps->syms, name, nlen, k))
			return fail(lx, at, "out of memory");
		int r = parse_lines(ps, lines, i + 1, e);
		pop_symbols(&ps->syms, mark);
		if (r)
			return -1;
	}
	return 0;
}

static int parse_lines(struct parser *ps, const struct line *lines, size_t from, size_t to)
{
	for (size_t i = from; i < to && !ps->failed; i++) {
		struct lexer lx;
		lexer_at(ps, &lx, &lines[i]);
		if (++ps->lines_done > MAX_LINES_DONE) {
			fail(&lx, lx.p, "the program expands to more than %u lines (a runaway .rept?)", MAX_LINES_DONE);
			ps->failed = 1;
			break;
		}
		if (lx.p >= lx.end)
			continue;
		const char *name;
		size_t dlen = directive_of(&lines[i], &name);
		int r = 0;
		if (dlen == 4 && strncmp(name, "rept", 4) == 0) {
			long e = block_end(lines, i, to, "rept", "endr", NULL);
			if (e < 0)
				r = fail(&lx, lx.p, ".rept without .endr");
			else
				r = parse_rept(ps, &lx, lines, i, (size_t)e), i = (size_t)e;
		} else if (dlen == 2 && strncmp(name, "if", 2) == 0) {
			long mid = block_end(lines, i, to, "if", "endif", "else"), e = mid;
			if (mid >= 0 && is_directive(&lines[mid], "else"))
				e = block_end(lines, (size_t)mid, to, "if", "endif", NULL);
			int64_t cond = 0;
			lx.p += 3;
			if (e < 0)
				r = fail(&lx, lines[i].start, ".if without .endif");
			else if ((r = parse_expr(&lx, &cond)) == 0) {
				skip_space(&lx);
				if (lx.p < lx.end)
					r = fail(&lx, lx.p, "unexpected '%c'", *lx.p);
				else if (cond)
					r = parse_lines(ps, lines, i + 1, (size_t)mid);
				else if (mid != e)
					r = parse_lines(ps, lines, (size_t)mid + 1, (size_t)e);
				i = (size_t)e;
			}
		} else if ((dlen == 4 && strncmp(name, "endr", 4) == 0) || (dlen == 5 && strncmp(name, "endif", 5) == 0) ||
		           (dlen == 4 && strncmp(name, "else", 4) == 0)) {
			r = fail(&lx, lx.p, ".%.*s without its opening directive", (int)dlen, name);
		} else if (dlen || *lx.p == '.') {
			r = parse_directive(ps, &lx);
		} else {
			struct ttx_item it = { .kind = TTX_ITEM_INSN, .thread = ps->thread, .line = lx.line, .file = lx.file };
			const char *at = lx.p;
			r = parse_insn(&lx, &it.word);
			if (r == 0)
				r = add_item(ps, &lx, at, &it);
		}
		if (r || lx.failed)
			ps->failed = 1;
	}
	return ps->failed ? -1 : 0;
}

/* Split a text into lines and parse them. */
static int parse_text(struct parser *ps, const char *text, size_t len, const char *file)
{
	size_t n = 0, cap = 0;
	struct line *lines = NULL;
	const char *p = text, *end = text + len;
	unsigned no = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		no++;
		const char *nul = memchr(p, '\0', (size_t)(eol - p));
		if (nul) {
			struct line l = { p, eol, no, file };
			struct lexer lx;
			lexer_at(ps, &lx, &l);
			fail(&lx, nul, "NUL byte in assembler text");
			ps->failed = 1;
			free(lines);
			return -1;
		}
		if (n == cap) {
			struct line *nl = realloc(lines, (cap ? 2 * cap : 256) * sizeof(*nl));
			if (!nl) {
				free(lines);
				snprintf(ps->err, ps->errlen, "%s: out of memory", file);
				ps->failed = 1;
				return -1;
			}
			lines = nl, cap = cap ? 2 * cap : 256;
		}
		lines[n++] = (struct line) { p, strip_comment(p, eol), no, file };
		p = eol < end ? eol + 1 : end;
	}
	int r = parse_lines(ps, lines, 0, n);
	free(lines);
	return r;
}

enum ttx_status ttx_program_parse_with(const char *text, size_t len, const char *filename,
                                       const struct ttx_asm_symbol *syms, size_t nsyms,
                                       struct ttx_program **out, char *err, size_t errlen)
{
	if (!out || (!text && len) || (nsyms && !syms)) {
		if (out)
			*out = NULL;
		if (err && errlen)
			snprintf(err, errlen, "ttx_program_parse: %s is NULL", !out ? "out" : !text ? "text" : "syms");
		return TTX_EINVAL;
	}
	if (!text)
		text = "";
	struct ttx_program *prog = calloc(1, sizeof(*prog));
	struct parser ps = { .prog = prog, .err = err, .errlen = errlen, .mn = calloc(1, sizeof(struct mnemonics)) };
	*out = NULL;
	const char *file = prog ? keep_string(prog, filename ? filename : "<input>",
	                                      strlen(filename ? filename : "<input>")) : NULL;
	if (!prog || !file) {
		ttx_program_free(prog);
		snprintf(err, errlen, "out of memory");
		return TTX_ENOMEM;
	}
	for (size_t i = 0; i < nsyms; i++)
		if (!syms[i].name || push_symbol(&ps.syms, syms[i].name, strlen(syms[i].name), syms[i].value)) {
			ps.failed = 1;
			snprintf(err, errlen, "%s", syms[i].name ? "out of memory" : "symbol without a name");
		}
	if (!ps.failed)
		parse_text(&ps, text, len, file);
	pop_symbols(&ps.syms, 0);
	free(ps.syms.v);
	free(ps.mn);
	if (ps.failed) {
		ttx_program_free(prog);
		return TTX_EINVAL;
	}
	*out = prog;
	return TTX_OK;
}

enum ttx_status ttx_program_parse(const char *text, size_t len, const char *filename,
                                  struct ttx_program **out, char *err, size_t errlen)
{
	return ttx_program_parse_with(text, len, filename, NULL, 0, out, err, errlen);
}

enum ttx_status ttx_asm_line(const char *text, uint32_t *word, char *err, size_t errlen)
{
	if (!text || !word) {
		if (err && errlen)
			snprintf(err, errlen, "ttx_asm_line: %s is NULL", !text ? "text" : "word");
		return TTX_EINVAL;
	}
	size_t len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;   /* lines as fgets/getline return them */
	struct lexer lx = { .file = "<line>", .line = 1, .start = text, .p = text,
	                    .end = strip_comment(text, text + len), .err = err, .errlen = errlen };
	skip_space(&lx);
	if (lx.p < lx.end && *lx.p == '.') {
		struct ttx_program prog = { 0 };
		struct parser ps = { .prog = &prog, .err = err, .errlen = errlen };
		const char *name;
		struct line l = { lx.start, lx.end, 1, "<line>" };
		size_t dlen = directive_of(&l, &name);
		int r = dlen == 4 && strncmp(name, "word", 4) == 0 ? parse_directive(&ps, &lx)
		                                                 : fail(&lx, lx.p, "only .word is allowed here");
		int ok = r == 0 && prog.n == 1;
		if (ok)
			*word = prog.items[0].word;
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
	for (size_t i = 0; i < p->nstrings; i++)
		free(p->strings[i]);
	free(p->strings);
	free(p->items);
	free(p);
}
