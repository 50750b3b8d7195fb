/* The address counters (ADCs, TC/ADCs.md) of the unpackers and packers and
 * the Miscellaneous Unit instructions that set them: SETADC, SETADCXY,
 * SETADCZW, SETADCXX, INCADCXY, INCADCZW, ADDRCRXY, ADDRCRZW, plus
 * REG2FLOP's ADC mode (TC/REG2FLOP_ADC.md) and SETDVALID's dispatch.
 *
 * Counter widths: X 18 bits, Y 13, Z and W 8 (TC/ADCs.md); every write wraps
 * to the width, as a hardware register of that width does. */
#include "tile.h"
#include "units.h"

#define X_MASK 0x3FFFFu
#define Y_MASK 0x1FFFu
#define ZW_MASK 0xFFu

static void set_x(struct ttx_adc_channel *c, uint32_t v) { c->x = c->x_cr = v & X_MASK; }
static void set_y(struct ttx_adc_channel *c, uint32_t v) { c->y = c->y_cr = v & Y_MASK; }
static void set_z(struct ttx_adc_channel *c, uint32_t v) { c->z = c->z_cr = v & ZW_MASK; }
static void set_w(struct ttx_adc_channel *c, uint32_t v) { c->w = c->w_cr = v & ZW_MASK; }

/* The ADCs of the units selected by U0/U1/PK (bits 21-23) of thread
   ThreadOverride - 1, or of the current thread when ThreadOverride is 0. */
static unsigned select_adcs(struct ttx_tile *t, unsigned thread, uint32_t word, unsigned override,
                            struct ttx_adc *out[3])
{
	struct ttx_adc_set *a = &t->adc[override == 0 ? thread : override - 1];
	unsigned n = 0;
	if (word >> 21 & 1)
		out[n++] = &a->unpacker[0];
	if (word >> 22 & 1)
		out[n++] = &a->unpacker[1];
	if (word >> 23 & 1)
		out[n++] = &a->packers;
	return n;
}

/* TC/SETADC.md: the thread override is NewValue's bits 17:16, and the
   counter takes all 18 bits of NewValue (masked to its width). */
static int op_setadc(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETADC a = ttx_decode_SETADC(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.NewValue >> 16, adc);
	for (unsigned i = 0; i < n; i++) {
		struct ttx_adc_channel *c = &adc[i]->ch[a.Channel];
		switch (a.XYZW) {
		case 0: set_x(c, a.NewValue); break;
		case 1: set_y(c, a.NewValue); break;
		case 2: set_z(c, a.NewValue); break;
		default: set_w(c, a.NewValue); break;
		}
	}
	return TTX_OK;
}

static int op_setadcxy(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETADCXY a = ttx_decode_SETADCXY(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.ThreadOverride, adc);
	for (unsigned i = 0; i < n; i++) {
		if (a.X0) set_x(&adc[i]->ch[0], a.X0Val);
		if (a.Y0) set_y(&adc[i]->ch[0], a.Y0Val);
		if (a.X1) set_x(&adc[i]->ch[1], a.X1Val);
		if (a.Y1) set_y(&adc[i]->ch[1], a.Y1Val);
	}
	return TTX_OK;
}

static int op_setadczw(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETADCZW a = ttx_decode_SETADCZW(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.ThreadOverride, adc);
	for (unsigned i = 0; i < n; i++) {
		if (a.Z0) set_z(&adc[i]->ch[0], a.Z0Val);
		if (a.W0) set_w(&adc[i]->ch[0], a.W0Val);
		if (a.Z1) set_z(&adc[i]->ch[1], a.Z1Val);
		if (a.W1) set_w(&adc[i]->ch[1], a.W1Val);
	}
	return TTX_OK;
}

/* TC/SETADCXX.md: always the current thread's ADCs. */
static int op_setadcxx(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_SETADCXX a = ttx_decode_SETADCXX(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, 0, adc);
	for (unsigned i = 0; i < n; i++) {
		set_x(&adc[i]->ch[0], a.X0Val);
		set_x(&adc[i]->ch[1], a.X1Val);
	}
	return TTX_OK;
}

static int op_incadcxy(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_INCADCXY a = ttx_decode_INCADCXY(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.ThreadOverride, adc);
	for (unsigned i = 0; i < n; i++) {
		struct ttx_adc_channel *c0 = &adc[i]->ch[0], *c1 = &adc[i]->ch[1];
		c0->x = (c0->x + a.X0Inc) & X_MASK;
		c0->y = (c0->y + a.Y0Inc) & Y_MASK;
		c1->x = (c1->x + a.X1Inc) & X_MASK;
		c1->y = (c1->y + a.Y1Inc) & Y_MASK;
	}
	return TTX_OK;
}

static int op_incadczw(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_INCADCZW a = ttx_decode_INCADCZW(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.ThreadOverride, adc);
	for (unsigned i = 0; i < n; i++) {
		struct ttx_adc_channel *c0 = &adc[i]->ch[0], *c1 = &adc[i]->ch[1];
		c0->z = (c0->z + a.Z0Inc) & ZW_MASK;
		c0->w = (c0->w + a.W0Inc) & ZW_MASK;
		c1->z = (c1->z + a.Z1Inc) & ZW_MASK;
		c1->w = (c1->w + a.W1Inc) & ZW_MASK;
	}
	return TTX_OK;
}

/* "Carry-return" adds: _Cr += Inc, then the counter takes _Cr. */
static void cr_add(uint32_t *v, uint32_t *cr, uint32_t inc, uint32_t mask)
{
	*cr = (*cr + inc) & mask;
	*v = *cr;
}

static int op_addrcrxy(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ADDRCRXY a = ttx_decode_ADDRCRXY(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.ThreadOverride, adc);
	for (unsigned i = 0; i < n; i++) {
		struct ttx_adc_channel *c0 = &adc[i]->ch[0], *c1 = &adc[i]->ch[1];
		if (a.X0) cr_add(&c0->x, &c0->x_cr, a.X0Inc, X_MASK);
		if (a.Y0) cr_add(&c0->y, &c0->y_cr, a.Y0Inc, Y_MASK);
		if (a.X1) cr_add(&c1->x, &c1->x_cr, a.X1Inc, X_MASK);
		if (a.Y1) cr_add(&c1->y, &c1->y_cr, a.Y1Inc, Y_MASK);
	}
	return TTX_OK;
}

static int op_addrcrzw(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_ADDRCRZW a = ttx_decode_ADDRCRZW(word);
	struct ttx_adc *adc[3];
	unsigned n = select_adcs(t, thread, word, a.ThreadOverride, adc);
	for (unsigned i = 0; i < n; i++) {
		struct ttx_adc_channel *c0 = &adc[i]->ch[0], *c1 = &adc[i]->ch[1];
		if (a.Z0) cr_add(&c0->z, &c0->z_cr, a.Z0Inc, ZW_MASK);
		if (a.W0) cr_add(&c0->w, &c0->w_cr, a.W0Inc, ZW_MASK);
		if (a.Z1) cr_add(&c1->z, &c1->z_cr, a.Z1Inc, ZW_MASK);
		if (a.W1) cr_add(&c1->w, &c1->w_cr, a.W1Inc, ZW_MASK);
	}
	return TTX_OK;
}

/* The Miscellaneous Unit (TC/MiscellaneousUnit.md): the ADC instructions and
   SETDVALID (interp/matrix.c). */
int ttx_misc_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	switch (word >> 24) {
	case TTX_OP_SETADC:    return op_setadc(t, thread, word);
	case TTX_OP_SETADCXY:  return op_setadcxy(t, thread, word);
	case TTX_OP_SETADCZW:  return op_setadczw(t, thread, word);
	case TTX_OP_SETADCXX:  return op_setadcxx(t, thread, word);
	case TTX_OP_INCADCXY:  return op_incadcxy(t, thread, word);
	case TTX_OP_INCADCZW:  return op_incadczw(t, thread, word);
	case TTX_OP_ADDRCRXY:  return op_addrcrxy(t, thread, word);
	case TTX_OP_ADDRCRZW:  return op_addrcrzw(t, thread, word);
	case TTX_OP_SETDVALID: return ttx_matrix_SETDVALID(t, thread, word);
	default:               return ttx_fault_undocumented(t, thread, word);
	}
}

/* TC/REG2FLOP_ADC.md: a GPR (or part of it) into one ADC counter or its _Cr.
   SizeSel 0 ("128 bit, not valid") writes 0, as the page's model does. */
int ttx_adc_reg2flop(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	struct ttx_args_REG2FLOP_ADC a = ttx_decode_REG2FLOP_ADC(word);
	uint32_t v = t->gpr[thread][a.InputReg];
	switch (a.SizeSel) {
	case 0: v = 0; break;
	case 1: if (a.Shift8) v = 0; break;
	case 2: v = a.Shift8 == 0 ? v & 0xFFFF : a.Shift8 == 2 ? v >> 16 : 0; break;
	default: v = (v >> (a.Shift8 * 8)) & 0xFF; break;
	}
	unsigned which = thread;
	if (a.OverrideThread) {
		which = a.ThreadSel;
		if (which >= TTX_THREADS)
			return TTX_OK;
	}
	if (a.ADCSel == 3)
		return TTX_OK;
	struct ttx_adc *adc = a.ADCSel == 2 ? &t->adc[which].packers : &t->adc[which].unpacker[a.ADCSel];
	struct ttx_adc_channel *c = &adc->ch[a.Channel];
	switch (a.XYZW) {
	case 0: *(a.Cr ? &c->x_cr : &c->x) = v & X_MASK; break;
	case 1: *(a.Cr ? &c->y_cr : &c->y) = v & Y_MASK; break;
	case 2: *(a.Cr ? &c->z_cr : &c->z) = v & ZW_MASK; break;
	default: *(a.Cr ? &c->w_cr : &c->w) = v & ZW_MASK; break;
	}
	return TTX_OK;
}
