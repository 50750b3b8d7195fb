/* The per-thread front end: instruction pipe -> MOP expander -> replay
 * expander -> (wait gate, backend).  Both expanders are the generators of
 * TC/MOPExpander.md and TC/REPLAY.md written as explicit state machines, so a
 * thread can stop after any instruction (a blocked backend instruction keeps
 * its place in fe->slot) and resume later.
 *
 * MopCfg is sampled when a MOP starts, as in the functional model; the page
 * notes hardware samples it during the expansion and tells software not to
 * change it meanwhile. */
#include "tile.h"

static int pipe_pop(struct ttx_tile *t, unsigned thread, uint32_t *word)
{
	struct ttx_pipe *p = &t->pipe[thread];
	if (p->head == p->tail)
		return 0;
	*word = p->words[p->head & (p->cap - 1)];
	if (p->at)
		ttx_timing_pop(t, thread);
	p->head++;
	return 1;
}

static int is_nop(uint32_t word)
{
	return word >> 24 == TTX_OP_NOP;   /* plain NOP only, not DMANOP/SFPNOP */
}

/* Template 1 set-up, including the documented hardware bug. */
static void start_template1(struct ttx_frontend *fe)
{
	const uint32_t *cfg = fe->mop_cfg;
	fe->outer_count = cfg[0] & 127;
	fe->inner_count = cfg[1] & 127;
	fe->loop_op = cfg[5];
	if (is_nop(cfg[6])) {
		fe->loop_op_flip = 0;
	} else {
		fe->loop_op_flip = cfg[5] ^ cfg[6];
		fe->inner_count *= 2;
	}
	if (fe->outer_count == 1 && is_nop(cfg[2]) && fe->inner_count == 0 && !is_nop(cfg[3]))
		fe->outer_count += 128;   /* hardware bug (TC/MOPExpander.md) */
	fe->outer = fe->inner = 0;
	fe->step = 0;
}

/* The next word of a template 0 expansion; 0 when it is over. */
static int next_template0(struct ttx_frontend *fe, uint32_t *word)
{
	const uint32_t *cfg = fe->mop_cfg;
	unsigned has_b = cfg[1] & 1, has_a123 = cfg[1] & 2;
	for (;;) {
		if (fe->outer > fe->inner_count)   /* inner_count holds Count1 here */
			return 0;
		int skip = fe->mask & 1;
		/* Steps: unmasked A0, A1, A2, A3, B; masked SkipA0, SkipB. */
		unsigned step = fe->step++;
		if (!skip) {
			if (step == 0) { *word = cfg[3]; return 1; }
			if (has_a123 && step <= 3) { *word = cfg[3 + step]; return 1; }
			if (has_b && step == 4) { *word = cfg[2]; return 1; }
			if (step < 4)
				continue;   /* A1-A3 absent: go on to B */
		} else {
			if (step == 0) { *word = cfg[7]; return 1; }
			if (has_b && step == 1) { *word = cfg[8]; return 1; }
		}
		fe->step = 0;
		fe->mask >>= 1;
		fe->outer++;
	}
}

/* The next word of a template 1 expansion; 0 when it is over. */
static int next_template1(struct ttx_frontend *fe, uint32_t *word)
{
	const uint32_t *cfg = fe->mop_cfg;
	for (;;) {
		if (fe->outer >= fe->outer_count)
			return 0;
		switch (fe->step) {
		case 0:   /* StartOp */
			fe->step = 1;
			fe->inner = 0;
			if (!is_nop(cfg[2])) { *word = cfg[2]; return 1; }
			continue;
		case 1:   /* the inner loop */
			if (fe->inner < fe->inner_count) {
				uint32_t i = fe->inner++;
				if (i != fe->inner_count - 1)
					*word = fe->loop_op;
				else if (fe->outer != fe->outer_count - 1)
					*word = cfg[8];   /* Loop1Last */
				else
					*word = cfg[7];   /* Loop0Last */
				fe->loop_op ^= fe->loop_op_flip;
				return 1;
			}
			fe->step = 2;
			continue;
		case 2:   /* EndOp0 */
			if (is_nop(cfg[3])) {
				fe->step = 4;
				continue;
			}
			fe->step = 3;
			*word = cfg[3];
			return 1;
		case 3:   /* EndOp1 */
			fe->step = 4;
			if (!is_nop(cfg[4])) { *word = cfg[4]; return 1; }
			continue;
		default:
			fe->step = 0;
			fe->outer++;
			continue;
		}
	}
}

/* A MOP instruction starts an expansion with the MopCfg of the moment. */
static void start_mop(struct ttx_frontend *fe, const uint32_t cfg[9], uint32_t mop_word)
{
	struct ttx_args_MOP a = ttx_decode_MOP(mop_word);
	for (unsigned i = 0; i < 9; i++)
		fe->mop_cfg[i] = cfg[i];
	fe->mop_active = 1;
	fe->mop_template = (uint8_t)a.Template;
	if (a.Template) {
		start_template1(fe);
	} else {
		fe->mask = ((uint32_t)fe->mask_hi << 16) | a.MaskLo;
		fe->inner_count = a.Count1;
		fe->outer = 0;
		fe->step = 0;
	}
}

size_t ttx_mop_expand(const uint32_t cfg[9], uint32_t mop_word, uint16_t mask_hi,
                      void (*emit)(void *ctx, uint32_t word), void *ctx)
{
	struct ttx_frontend fe = { .mask_hi = mask_hi };
	uint32_t w;
	size_t n = 0;
	start_mop(&fe, cfg, mop_word);
	while (fe.mop_template ? next_template1(&fe, &w) : next_template0(&fe, &w)) {
		if (emit)
			emit(ctx, w);
		n++;
	}
	return n;
}

uint32_t ttx_mop_resume(struct ttx_frontend *fe, const uint32_t cfg[9], uint32_t mop_word, size_t done,
                        void (*emit)(void *ctx, uint32_t word), void *ctx)
{
	uint32_t w = 0;
	start_mop(fe, cfg, mop_word);
	for (size_t i = 0; i < done && (fe->mop_template ? next_template1(fe, &w) : next_template0(fe, &w)); i++)
		emit(ctx, w);
	return w;
}

/* The MOP expander's next output word; 0 when the pipe is empty. */
static int mop_next(struct ttx_tile *t, unsigned thread, uint32_t *word)
{
	struct ttx_frontend *fe = &t->fe[thread];
	for (;;) {
		if (fe->mop_active) {
			int more = fe->mop_template ? next_template1(fe, word) : next_template0(fe, word);
			if (more)
				return 1;
			fe->mop_active = 0;
			t->timing.mop_ended[thread] = t->timing.on;   /* docs/timing.md: transition cycle */
		}
		uint32_t w;
		struct ttx_pipe *p = &t->pipe[thread];
		if (p->b_head != p->b_tail) {   /* RISCV B's words join after the MOP expander */
			*word = p->from_b[p->b_head++ % TTX_FROM_B_FIFO];
			return 1;
		}
		if (!pipe_pop(t, thread, &w))
			return 0;
		switch (w >> 24) {
		case TTX_OP_MOP_CFG: {
			struct ttx_args_MOP_CFG a = ttx_decode_MOP_CFG(w);
			fe->mask_hi = (uint16_t)a.MaskHi;
			ttx_timing_frontend(t, thread, 1);   /* ingested, nothing emitted */
			break;
		}
		case TTX_OP_MOP:
			t->timing.mop_ended[thread] = 0;   /* MOP after MOP: no transition cycle */
			start_mop(fe, t->mop[thread].cfg, w);
			break;
		default:
			*word = w;
			return 1;
		}
		t->op_counts[w >> 24]++;
	}
}

void ttx_replay_start(struct ttx_frontend *fe, uint32_t word)
{
	struct ttx_args_REPLAY a = ttx_decode_REPLAY(word);
	fe->replay_index = (uint8_t)a.Index;
	fe->replay_left = (uint8_t)(a.Count ? a.Count : 64);
	fe->replay_exec = (uint8_t)a.Exec;
	fe->replay_mode = a.Load ? 1 : 2;
}

int ttx_frontend_fetch(struct ttx_tile *t, unsigned thread)
{
	struct ttx_frontend *fe = &t->fe[thread];
	if (fe->has_slot)
		return 1;
	uint32_t w;
	for (;;) {
		if (fe->replay_mode == 2) {   /* playback */
			w = fe->replay[fe->replay_index];
			fe->replay_index = (fe->replay_index + 1) % TTX_REPLAY_SIZE;
			if (--fe->replay_left == 0)
				fe->replay_mode = 0;
			break;
		}
		if (!mop_next(t, thread, &w))
			return 0;
		if (fe->replay_mode == 1) {   /* recording */
			fe->replay[fe->replay_index] = w;
			fe->replay_index = (fe->replay_index + 1) % TTX_REPLAY_SIZE;
			if (--fe->replay_left == 0)
				fe->replay_mode = 0;
			if (fe->replay_exec)
				break;
			ttx_timing_frontend(t, thread, 1);   /* ingested, nothing emitted */
			continue;
		}
		if (w >> 24 == TTX_OP_REPLAY) {
			ttx_replay_start(fe, w);
			t->op_counts[TTX_OP_REPLAY]++;
			continue;
		}
		break;
	}
	fe->slot = w;
	fe->has_slot = 1;
	return 1;
}
