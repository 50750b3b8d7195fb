/* The tensor operations on a grid of a chip's tiles (docs/ops.md "Grid
 * operations"): the work of app/ops.c spread over R x C Tensix tiles of an
 * emulated Wormhole (an n150: its 8 x 8 worker grid), the way tt-metal
 * runs a layer.  Inputs go to the chip's DRAM as interleaved buffers
 * (pages of one tile each, round-robin over the six channels); on each
 * tile RISCV NC reads its share into L1 (kernels/riscv/grid_dm.c), the
 * TRISCs run the op's C kernels on it (kernels/riscv/ops_*.c, the very
 * kernels of --kernels riscv), RISCV B writes the results back; the host
 * reads the result buffer.  A matmul's operands travel as tt-metal's
 * multicast matmul moves them: the first tile of each row reads a block
 * of A's rows and multicasts it along the row, the first of each column a
 * block of B's columns down the column.  With --shard the host puts each
 * tile's inputs in its L1 and takes its results from there.
 *
 * The work goes in phases the host launches one after the other, each on
 * every tile at once: data in, compute, data out (a matmul: data in and
 * compute for each block of K, then a conversion, then data out).  The
 * chip's clock runs on between them, so the device time is the phases'
 * sum plus their launches.  A tile keeps its L1 across the phases of an
 * op; its Tensix state is reset before each compute phase as
 * ttx_op_run resets its tile. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tile.h"
#include "formats.h"
#include "ops.h"
#include "ttx_kargs.h"
#include "ttx_grid.h"

/* the data movers (grid_dm.c) built into the library (rv_ops_embed.c) */
extern const unsigned char ttx_rv_grid_dm_b[], ttx_rv_grid_dm_nc[];
extern const size_t ttx_rv_grid_dm_b_len, ttx_rv_grid_dm_nc_len;

#define GRID_MAX 8
#define DRAM_CHANNEL_BYTES (2ull << 30)
#define STEP 128                 /* cycles between the host's looks at the tiles */
#define DEADLOCK_CYCLES 2000000  /* no instruction anywhere and nothing on the NoC for this long */

enum { DM_B, DM_NC };

struct grid {
	struct ttx_chip *chip;
	int own_chip;                               /* made for the op (else the caller's) */
	unsigned rows, cols;
	unsigned x[GRID_MAX], y[GRID_MAX];          /* NoC #0 coordinates of column c, of row r */
	struct ttx_tile *tile[GRID_MAX][GRID_MAX];  /* [r][c] */
	unsigned bank_x[2][TTX_DRAM_BANKS], bank_y[2][TTX_DRAM_BANKS];   /* [noc]: each channel's endpoint (NoC #0 coordinates) */
	uint64_t dram_top;                          /* bytes used in every channel */
	uint32_t sem_seen[GRID_MAX][GRID_MAX][2];   /* multicasts each tile has had (its semaphores) */
	unsigned phases;
	uint64_t start;                             /* the chip's counts when the op began */
	struct ttx_cycles tile_before[GRID_MAX][GRID_MAX];
	double host_start;
};

/* What one tile does in a phase. */
struct job {
	int dm[2];                       /* DM_B, DM_NC: args set */
	struct ttx_dm_args args[2];
	int compute;
	const char *kernel;
	struct syms syms;
};

/* ---- the chip ---- */

enum ttx_status grid_open(struct opc *c)
{
	unsigned R = c->p.grid_rows, C = c->p.grid_cols;
	if (R < 1 || C < 1 || R > GRID_MAX || C > GRID_MAX)
		return ops_fail(c, TTX_EINVAL, "--grid %ux%u: the chip's worker grid is %ux%u (an n150: 8 columns, 8 of its "
		                "10 rows of Tensix tiles)", R, C, GRID_MAX, GRID_MAX);
	if (!ttx_rv_grid_dm_b_len)
		return ops_fail(c, TTX_EINVAL, "--grid: this libttx was built without a RISC-V cross compiler "
		                "(riscv64-unknown-elf-gcc; ./bootstrap installs it): the grid's kernels run on the cores");
	struct grid *g = calloc(1, sizeof(*g));
	if (!g)
		return ops_fail(c, TTX_ENOMEM, "out of memory");
	if (c->p.chip) {
		g->chip = c->p.chip;
	} else {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		struct ttx_chip_options o = { .size = sizeof(o), .harvested_rows = 1u << 10 | 1u << 11 };
		o.threads = c->p.threads ? c->p.threads : cpus > 0 ? (unsigned)cpus : 1;
		char err[256];
		enum ttx_status st = ttx_chip_create(&o, &g->chip, err, sizeof(err));
		if (st != TTX_OK) {
			free(g);
			return ops_fail(c, st, "%s", err);
		}
		g->own_chip = 1;
	}
	/* the Tensix columns and rows, and the DRAM channels' endpoints (their
	   NIUs' NOC_ENDPOINT_ID: index in the channel, channel) */
	unsigned ncols = 0, nrows = 0;
	for (unsigned x = 0; x < TTX_CHIP_COLS; x++)
		if (ttx_chip_tile_kind(g->chip, x, 1) == TTX_TILE_TENSIX && ncols < GRID_MAX)
			g->x[ncols++] = x;
	for (unsigned y = 0; y < TTX_CHIP_ROWS; y++)
		if (ttx_chip_tile_kind(g->chip, 1, y) == TTX_TILE_TENSIX && nrows < GRID_MAX)
			g->y[nrows++] = y;
	for (unsigned x = 0; x < TTX_CHIP_COLS; x++)
		for (unsigned y = 0; y < TTX_CHIP_ROWS; y++) {
			uint32_t id;
			if (ttx_chip_tile_kind(g->chip, x, y) != TTX_TILE_DRAM ||
			    ttx_chip_noc_read(g->chip, x, y, 0xFFFB20030ull, &id, 4) != TTX_OK)
				continue;
			unsigned k = id & 0xFF, ch = id >> 8 & 0xFF;
			if (k < 2 && ch < TTX_DRAM_BANKS)
				g->bank_x[k][ch] = x, g->bank_y[k][ch] = y;
		}
	if (nrows < R || ncols < C) {
		if (g->own_chip)
			ttx_chip_destroy(g->chip);
		free(g);
		return ops_fail(c, TTX_EINVAL, "--grid %ux%u: the chip has %u x %u Tensix tiles that are not harvested", R, C,
		                nrows, ncols);
	}
	g->rows = R, g->cols = C;
	const uint32_t zero[8] = { 0 };
	for (unsigned r = 0; r < R; r++)
		for (unsigned k = 0; k < C; k++) {
			g->tile[r][k] = ttx_chip_tile(g->chip, g->x[k], g->y[r]);
			/* (a chip used before: the semaphores count this op's multicasts) */
			ttx_l1_write(g->tile[r][k], TTX_DM_SEM(0), zero, sizeof(zero));
		}
	ttx_chip_stats_reset(g->chip);   /* (the NoC's and DRAM's counts: this op's) */
	for (unsigned r = 0; r < R; r++)
		for (unsigned k = 0; k < C; k++)
			ttx_cycles_get(g->tile[r][k], &g->tile_before[r][k]);
	g->start = ttx_chip_cycles(g->chip);
	g->host_start = ttx_monotonic_seconds();
	c->grid = g;
	return TTX_OK;
}

static void fill_stats(struct opc *c)
{
	struct grid *g = c->grid;
	struct ttx_grid_stats *s = c->p.grid_stats;
	if (!s)
		return;
	memset(s, 0, sizeof(*s));
	s->rows = g->rows, s->cols = g->cols, s->phases = g->phases;
	ttx_chip_stats_get(g->chip, &s->chip);
	s->cycles = s->chip.cycles - g->start;
	s->chip.cycles = s->cycles;
	for (unsigned r = 0; r < g->rows; r++)
		for (unsigned k = 0; k < g->cols; k++) {
			struct ttx_cycles cy;
			ttx_cycles_get(g->tile[r][k], &cy);
			s->macs += cy.macs - g->tile_before[r][k].macs;
			for (unsigned u = 0; u < TTX_UNIT_COUNT; u++)
				s->busy_by_unit[u] += cy.busy_by_unit[u] - g->tile_before[r][k].busy_by_unit[u];
		}
	s->host_seconds = ttx_monotonic_seconds() - g->host_start;
}

void grid_close(struct opc *c)
{
	struct grid *g = c->grid;
	if (!g)
		return;
	fill_stats(c);
	if (g->own_chip)
		ttx_chip_destroy(g->chip);
	free(g);
	c->grid = NULL;
}

/* ---- DRAM buffers ---- */

struct dbuf {
	uint32_t base, page;   /* page p: channel p % 6, at base + (p / 6) page */
};

static enum ttx_status dram_alloc(struct opc *c, size_t pages, size_t page, struct dbuf *b)
{
	struct grid *g = c->grid;
	uint64_t per = (pages + TTX_DRAM_BANKS - 1) / TTX_DRAM_BANKS * (uint64_t)page;
	if (g->dram_top + per > DRAM_CHANNEL_BYTES - page)
		return ops_fail(c, TTX_ENOMEM, "the op's buffers need more than the %llu GiB of each of the chip's %u DRAM "
		                "channels", DRAM_CHANNEL_BYTES >> 30, TTX_DRAM_BANKS);
	b->base = (uint32_t)g->dram_top, b->page = (uint32_t)page;
	g->dram_top = (g->dram_top + per + 63) & ~63ull;
	return TTX_OK;
}

/* The host's side: n pages from `first` to or from a buffer. */
static enum ttx_status dram_io(struct opc *c, const struct dbuf *b, size_t first, uint8_t *data, size_t n, int store)
{
	struct grid *g = c->grid;
	for (size_t i = 0; i < n; i++) {
		size_t p = first + i, ch = p % TTX_DRAM_BANKS;
		uint64_t addr = b->base + (uint64_t)(p / TTX_DRAM_BANKS) * b->page;
		enum ttx_status st = store
		    ? ttx_chip_noc_write(g->chip, g->bank_x[0][ch], g->bank_y[0][ch], addr, data + i * b->page, b->page)
		    : ttx_chip_noc_read(g->chip, g->bank_x[0][ch], g->bank_y[0][ch], addr, data + i * b->page, b->page);
		if (st != TTX_OK)
			return ops_fail(c, st, "DRAM: %s", ttx_chip_error(g->chip));
	}
	return TTX_OK;
}

/* ---- the data movers' arguments ---- */

static void dm_init(struct grid *g, struct job *j, unsigned core, int write)
{
	struct ttx_dm_args *a = &j->args[core];
	memset(a, 0, sizeof(*a));
	j->dm[core] = 1;
	a->magic = TTX_DM_MAGIC, a->write = (uint32_t)write, a->noc = core == DM_NC;
	for (unsigned ch = 0; ch < TTX_DRAM_BANKS; ch++) {
		unsigned x = g->bank_x[a->noc][ch], y = g->bank_y[a->noc][ch];
		if (a->noc)   /* NoC #1's own coordinates */
			x = TTX_CHIP_COLS - 1 - x, y = TTX_CHIP_ROWS - 1 - y;
		a->bank_xy[ch] = x | y << 8;
	}
}

static int dm_buf(struct ttx_dm_args *a, const struct dbuf *b)
{
	for (unsigned i = 0; i < TTX_DM_BUFS; i++)
		if (a->bufs[i].page_bytes == 0 || (a->bufs[i].base == b->base && a->bufs[i].page_bytes == b->page)) {
			a->bufs[i].base = b->base, a->bufs[i].page_bytes = b->page;
			return (int)i;
		}
	return -1;
}

/* count pages first, first + page_stride, ... of b to or from L1 at l1,
   l1 + page, ... */
static enum ttx_status dm_run(struct opc *c, struct ttx_dm_args *a, const struct dbuf *b, uint32_t l1, size_t first,
                              size_t count, size_t page_stride)
{
	int buf = dm_buf(a, b);
	if (buf < 0 || a->nruns == TTX_DM_RUNS)
		return ops_fail(c, TTX_EINVAL, "a data mover's transfers do not fit its %u runs (a ttx bug)", TTX_DM_RUNS);
	struct ttx_dm_run *r = &a->runs[a->nruns++];
	r->l1 = l1, r->l1_stride = b->page, r->buf = (uint32_t)buf, r->first = (uint32_t)first;
	r->count = (uint32_t)count, r->page_stride = (uint32_t)page_stride;
	return TTX_OK;
}

/* ---- phases ---- */

static const char *const core_label[TTX_CORE_COUNT] = { "RISCV B", "RISCV T0", "RISCV T1", "RISCV T2", "RISCV NC" };

static uint64_t activity(struct grid *g)
{
	uint64_t a = 0;
	struct ttx_chip_stats s;
	ttx_chip_stats_get(g->chip, &s);
	a += s.packets;
	for (unsigned r = 0; r < g->rows; r++)
		for (unsigned k = 0; k < g->cols; k++) {
			struct ttx_stats st;
			ttx_stats_get(g->tile[r][k], &st);
			a += st.insns;
			for (unsigned core = 0; core < TTX_CORE_COUNT; core++) {
				struct ttx_core_state cs;
				ttx_core_state(g->tile[r][k], (enum ttx_core)core, &cs);
				a += cs.insns;
			}
		}
	return a;
}

/* Launch every tile's job and clock the chip until all of them are done. */
static enum ttx_status run_phase(struct opc *c, struct job jobs[GRID_MAX][GRID_MAX])
{
	struct grid *g = c->grid;
	static const struct { const unsigned char *image; const size_t *len; enum ttx_core core; } dm[2] = {
		{ ttx_rv_grid_dm_b, &ttx_rv_grid_dm_b_len, TTX_CORE_B },
		{ ttx_rv_grid_dm_nc, &ttx_rv_grid_dm_nc_len, TTX_CORE_NC },
	};
	int any = 0;
	for (unsigned r = 0; r < g->rows; r++)
		for (unsigned k = 0; k < g->cols; k++) {
			struct job *j = &jobs[r][k];
			struct ttx_tile *t = g->tile[r][k];
			if (!j->dm[0] && !j->dm[1] && !j->compute)
				continue;
			any = 1;
			ops_clear_tile(t, 1);
			for (unsigned d = 0; d < 2; d++) {
				if (!j->dm[d])
					continue;
				uint32_t entry;
				if (ttx_l1_write(t, TTX_DM_ARGS(d), &j->args[d], sizeof(j->args[d])) != TTX_OK ||
				    ttx_elf_load(t, dm[d].core, dm[d].image, *dm[d].len, &entry) != TTX_OK ||
				    ttx_core_start(t, dm[d].core, entry) != TTX_OK)
					return ops_fail(c, TTX_FAULT, "tile (%u, %u): the data mover on %s: %s (a ttx bug)", r, k,
					                core_label[dm[d].core], ttx_tile_error(t));
			}
			if (j->compute) {
				c->t = t;
				enum ttx_status st = ops_start_riscv(c, j->kernel, &j->syms);
				if (st != TTX_OK)
					return st;
			}
		}
	if (!any)
		return TTX_OK;
	g->phases++;
	uint64_t last = activity(g), still = 0, steps = 0;
	for (;;) {
		int busy = 0;
		for (unsigned r = 0; r < g->rows && !busy; r++)
			for (unsigned k = 0; k < g->cols && !busy; k++)
				busy = !ttx_chip_tile_idle(g->chip, g->x[k], g->y[r]);
		if (!busy)
			break;
		if (c->p.progress && c->p.progress(c->p.progress_ctx, c->total > 0 ? c->done / c->total : 0))
			return ops_fail(c, TTX_INTERRUPTED, "interrupted");
		enum ttx_status st = ttx_chip_clock(g->chip, STEP);
		if (st != TTX_OK)
			return ops_fail(c, TTX_FAULT, "the chip stopped: %s", ttx_chip_error(g->chip));
		if (++steps % 64)   /* (looking costs: every 8,192 cycles) */
			continue;
		uint64_t now = activity(g);
		still = now == last ? still + 64 * STEP : 0;
		last = now;
		if (still >= DEADLOCK_CYCLES) {
			char who[2048];
			ttx_chip_waiting_report(g->chip, who, sizeof(who));
			return ops_fail(c, TTX_FAULT, "deadlock at device cycle %llu: nothing moved for %u cycles: %s",
			                (unsigned long long)ttx_chip_cycles(g->chip), DEADLOCK_CYCLES, who);
		}
	}
	/* each data mover finished, each compute kernel without complaint */
	for (unsigned r = 0; r < g->rows; r++)
		for (unsigned k = 0; k < g->cols; k++) {
			struct job *j = &jobs[r][k];
			struct ttx_tile *t = g->tile[r][k];
			for (unsigned d = 0; d < 2; d++) {
				uint32_t done = 0;
				ttx_l1_read(t, TTX_DM_ARGS(d) + offsetof(struct ttx_dm_args, done), &done, 4);
				if (j->dm[d] && done != 1)
					return ops_fail(c, TTX_FAULT, "tile (%u, %u): the data mover on %s stopped early (a ttx bug)", r, k,
					                core_label[dm[d].core]);
			}
			if (j->compute) {
				char why[sizeof(((struct ttx_kargs *)0)->error)];
				ttx_l1_read(t, TTX_KARGS_ADDR + offsetof(struct ttx_kargs, error), why, sizeof(why));
				why[sizeof(why) - 1] = 0;
				if (why[0])
					return ops_fail(c, TTX_FAULT, "tile (%u, %u): the RISC-V kernel for %s stopped: %s (a ttx bug)", r,
					                k, j->kernel, why);
			}
		}
	return TTX_OK;
}

static struct job (*jobs_new(struct opc *c))[GRID_MAX]
{
	struct job (*j)[GRID_MAX] = calloc(GRID_MAX, sizeof(*j));
	if (!j)
		ops_fail(c, TTX_ENOMEM, "out of memory");
	return j;
}

static void jobs_clear(struct job (*j)[GRID_MAX])
{
	memset(j, 0, GRID_MAX * sizeof(*j));
}

/* ---- streams (run_stream's work) ---- */

enum ttx_status grid_stream(struct opc *c, const struct stream *k, struct syms *s, const uint8_t *in,
                            enum ttx_format in_f, size_t units, size_t per, enum ttx_format out_f, uint8_t *out)
{
	struct grid *g = c->grid;
	size_t T = g->rows * g->cols, it = ttx_format_tile_bytes(in_f), ot = ttx_format_tile_bytes(out_f);
	size_t upt = (units + T - 1) / T;   /* units a tile a run */
	if (upt > per)
		upt = per;
	if (!upt)
		return TTX_OK;
	struct dbuf bin = { 0 }, bout = { 0 }, bextra = { 0 };
	size_t extra_page = (k->extra_len + 31) & ~(size_t)31;
	enum ttx_status st = TTX_OK;
	if (!c->p.shard) {
		if ((st = dram_alloc(c, units * k->in_per, it, &bin)) != TTX_OK ||
		    (st = dram_alloc(c, units * k->out_per, ot, &bout)) != TTX_OK ||
		    (k->extra_len && (st = dram_alloc(c, 1, extra_page, &bextra)) != TTX_OK))
			return st;
		if ((st = dram_io(c, &bin, 0, (uint8_t *)in, units * k->in_per, 1)) != TTX_OK)
			return st;
		if (k->extra_len) {
			uint8_t *e = calloc(1, extra_page);
			if (!e)
				return ops_fail(c, TTX_ENOMEM, "out of memory");
			memcpy(e, k->extra, k->extra_len);
			st = dram_io(c, &bextra, 0, e, 1, 1);
			free(e);
			if (st != TTX_OK)
				return st;
		}
	}
	struct job (*jobs)[GRID_MAX] = jobs_new(c);
	if (!jobs)
		return TTX_ENOMEM;
	for (size_t u0 = 0; u0 < units && st == TTX_OK; u0 += T * upt) {
		size_t first[GRID_MAX][GRID_MAX], n[GRID_MAX][GRID_MAX];
		for (unsigned i = 0; i < T; i++) {
			size_t u = u0 + i * upt;
			first[i / g->cols][i % g->cols] = u;
			n[i / g->cols][i % g->cols] = u >= units ? 0 : units - u < upt ? units - u : upt;
		}
		/* in: NC reads its units' pages (and the extra block) */
		jobs_clear(jobs);
		for (unsigned r = 0; r < g->rows && st == TTX_OK; r++)
			for (unsigned q = 0; q < g->cols && st == TTX_OK; q++) {
				size_t u = first[r][q], m = n[r][q];
				if (!m)
					continue;
				struct ttx_tile *t = g->tile[r][q];
				if (c->p.shard) {
					ttx_l1_write(t, L1_IN, in + u * k->in_per * it, m * k->in_per * it);
					if (k->extra_len)
						ttx_l1_write(t, L1_IN2, k->extra, k->extra_len);
					continue;
				}
				dm_init(g, &jobs[r][q], DM_NC, 0);
				st = dm_run(c, &jobs[r][q].args[DM_NC], &bin, L1_IN, u * k->in_per, m * k->in_per, 1);
				if (st == TTX_OK && k->extra_len)
					st = dm_run(c, &jobs[r][q].args[DM_NC], &bextra, L1_IN2, 0, 1, 1);
			}
		if (st != TTX_OK || (st = run_phase(c, jobs)) != TTX_OK)
			break;
		/* compute */
		jobs_clear(jobs);
		for (unsigned r = 0; r < g->rows; r++)
			for (unsigned q = 0; q < g->cols; q++) {
				if (!n[r][q])
					continue;
				struct job *j = &jobs[r][q];
				j->compute = 1, j->kernel = k->kernel, j->syms = *s;
				ops_sym(&j->syms, k->count_sym, (int64_t)n[r][q]);
			}
		if ((st = run_phase(c, jobs)) != TTX_OK)
			break;
		/* out: B writes the results' pages */
		jobs_clear(jobs);
		for (unsigned r = 0; r < g->rows && st == TTX_OK; r++)
			for (unsigned q = 0; q < g->cols && st == TTX_OK; q++) {
				size_t u = first[r][q], m = n[r][q];
				if (!m)
					continue;
				if (c->p.shard) {
					ttx_l1_read(g->tile[r][q], L1_OUT, out + u * k->out_per * ot, m * k->out_per * ot);
					continue;
				}
				dm_init(g, &jobs[r][q], DM_B, 1);
				st = dm_run(c, &jobs[r][q].args[DM_B], &bout, L1_OUT, u * k->out_per, m * k->out_per, 1);
			}
		if (st == TTX_OK)
			st = run_phase(c, jobs);
		size_t done_units = units - u0 < T * upt ? units - u0 : T * upt;
		ops_progress(c, (double)(done_units * k->in_per));
	}
	free(jobs);
	if (st == TTX_OK && !c->p.shard)
		st = dram_io(c, &bout, 0, out, units * k->out_per, 0);
	return st;
}

/* ---- matmul: 2-D multicast ---- */

/* The rectangle of grid row r (sender excluded by the NIU) or column q, in
   NoC noc's coordinates, as ttx_dm_args.mc_rect. */
static uint32_t rect(const struct grid *g, unsigned noc, unsigned x0, unsigned y0, unsigned x1, unsigned y1)
{
	if (noc) {
		unsigned a = TTX_CHIP_COLS - 1 - x1, b = TTX_CHIP_ROWS - 1 - y1;
		x1 = TTX_CHIP_COLS - 1 - x0, y1 = TTX_CHIP_ROWS - 1 - y0, x0 = a, y0 = b;
	}
	(void)g;
	return x0 | y0 << 8 | x1 << 16 | y1 << 24;
}

enum ttx_status grid_matmul(struct opc *c, const struct tiled *a, const struct tiled *b, enum ttx_format out_f,
                            struct tiled *out)
{
	struct grid *g = c->grid;
	size_t Mt = a->tr, Kt = a->tc, Nt = b->tc, R = g->rows, C = g->cols;
	unsigned srcf = 0;
	enum ttx_status st = ops_src_format(c, a->f, &srcf);
	if (st != TTX_OK)
		return st;
	/* the tile-level work as the 1 x 1 op does it (app/ops.c matmul_tiles):
	   blocks of at most 8 x 8 output tiles, K in chunks of 32 tiles, FP32
	   partial sums accumulated by the packer in L1 when K is split */
	size_t kc = Kt < 32 ? Kt : 32, nk = (Kt + kc - 1) / kc;
	enum ttx_format acc_f = nk > 1 ? TTX_FORMAT_FP32 : out_f;
	size_t at = a->tile_bytes, bt = b->tile_bytes, ct = ttx_format_tile_bytes(acc_f), ot = ttx_format_tile_bytes(out_f);
	size_t Mb = (Mt + R - 1) / R, Nb = (Nt + C - 1) / C;   /* a tile's share */
	size_t bm = Mb < 8 ? Mb : 8, bn = Nb < 8 ? Nb : 8;
	while ((bm * kc * at + kc * bn * bt + bm * bn * ct) > L1_END - L1_IN && (bm > 1 || bn > 1)) {
		if (bm >= bn)
			bm = (bm + 1) / 2;
		else
			bn = (bn + 1) / 2;
	}
	if (bm * kc * at + kc * bn * bt + bm * bn * ct > L1_END - L1_IN)
		return ops_fail(c, TTX_ENOMEM, "matmul on the grid: one output tile with %zu tiles of K needs %zu bytes of L1 "
		                "per tile, more than the %u it has for data", kc, kc * (at + bt) + ct, L1_END - L1_IN);
	if ((st = ops_alloc_tiled(c, out, out_f, a->batch, Mt, Nt)) != TTX_OK)
		return st;
	uint32_t A0 = L1_IN, B0 = (uint32_t)(A0 + bm * kc * at), C0 = (uint32_t)(B0 + kc * bn * bt);
	C0 = (C0 + 15) & ~15u;
	struct syms s = { .n = 0 }, conv = { .n = 0 };
	if ((st = ops_output_path(c, acc_f, &s)) != TTX_OK)
		goto done;
	ops_sym(&s, "IN_FMT", (unsigned)a->f), ops_sym(&s, "SRC_FMT", srcf), ops_sym(&s, "PHASES", (int)c->p.fidelity + 1);
	ops_sym(&s, "A_ADDR", A0), ops_sym(&s, "A_TILE", (int64_t)at), ops_sym(&s, "B_ADDR", B0);
	ops_sym(&s, "B_TILE", (int64_t)bt), ops_sym(&s, "C_ADDR", C0), ops_sym(&s, "C_TILE", (int64_t)ct);
	/* the conversion of FP32 partial sums to the output format: the unary
	   copy kernel, as sfpu_tiles runs it for the 1 x 1 op */
	uint32_t OUT0 = acc_f == out_f ? C0 : A0;
	if (acc_f != out_f) {
		ops_fn_syms(&conv, FN_COPY, 0);
		if ((st = ops_input_path(c, acc_f, &conv)) != TTX_OK || (st = ops_output_path(c, out_f, &conv)) != TTX_OK)
			goto done;
		ops_sym(&conv, "IN_FMT", (unsigned)acc_f), ops_sym(&conv, "IN_ADDR", C0), ops_sym(&conv, "IN_TILE", (int64_t)ct);
		ops_sym(&conv, "OUT_ADDR", OUT0), ops_sym(&conv, "OUT_TILE", (int64_t)ot);
	}
	struct dbuf ba = { 0 }, bb = { 0 }, bc = { 0 };
	if (!c->p.shard) {
		if ((st = dram_alloc(c, a->batch * Mt * Kt, at, &ba)) != TTX_OK ||
		    (st = dram_alloc(c, b->batch * Kt * Nt, bt, &bb)) != TTX_OK ||
		    (st = dram_alloc(c, a->batch * Mt * Nt, ot, &bc)) != TTX_OK ||
		    (st = dram_io(c, &ba, 0, a->bytes, a->batch * Mt * Kt, 1)) != TTX_OK ||
		    (st = dram_io(c, &bb, 0, b->bytes, b->batch * Kt * Nt, 1)) != TTX_OK)
			goto done;
	}
	struct job (*jobs)[GRID_MAX] = jobs_new(c);
	if (!jobs) {
		st = TTX_ENOMEM;
		goto done;
	}
	uint8_t *blk = c->p.shard ? malloc(kc * (bm * at > bn * bt ? bm * at : bn * bt)) : NULL;
	if (c->p.shard && !blk) {
		free(jobs);
		st = ops_fail(c, TTX_ENOMEM, "out of memory");
		goto done;
	}
	/* the sub-blocks of each tile's share, all tiles at once */
	for (size_t n = 0; n < a->batch && st == TTX_OK; n++) {
		size_t nb = b->batch == 1 ? 0 : n;
		for (size_t si = 0; si < Mb && st == TTX_OK; si += bm)
			for (size_t sj = 0; sj < Nb && st == TTX_OK; sj += bn) {
				/* rows of the block of grid row r: r Mb + si + [0, mt(r)) */
				size_t mt[GRID_MAX], nt[GRID_MAX], i0[GRID_MAX], j0[GRID_MAX];
				for (size_t r = 0; r < R; r++) {
					size_t end = (r + 1) * Mb < Mt ? (r + 1) * Mb : Mt;
					i0[r] = r * Mb + si;
					mt[r] = i0[r] >= end ? 0 : end - i0[r] < bm ? end - i0[r] : bm;
				}
				for (size_t q = 0; q < C; q++) {
					size_t end = (q + 1) * Nb < Nt ? (q + 1) * Nb : Nt;
					j0[q] = q * Nb + sj;
					nt[q] = j0[q] >= end ? 0 : end - j0[q] < bn ? end - j0[q] : bn;
				}
				for (size_t kb = 0; kb < nk && st == TTX_OK; kb++) {
					size_t k0 = kb * kc, kt = Kt - k0 < kc ? Kt - k0 : kc;
					/* data in: the first tile of each row reads A's rows and
					   multicasts them along the row (NC, NoC #1); the first
					   of each column B's columns down the column (B, NoC #0) */
					jobs_clear(jobs);
					for (size_t r = 0; r < R && st == TTX_OK; r++)
						for (size_t q = 0; q < C && st == TTX_OK; q++) {
							struct job *j = &jobs[r][q];
							if (c->p.shard) {   /* each tile's operands from the host */
								struct ttx_tile *t = g->tile[r][q];
								if (!mt[r] || !nt[q])
									continue;
								for (size_t i = 0; i < mt[r]; i++)
									for (size_t k = 0; k < kt; k++)
										memcpy(blk + (i * kt + k) * at, ops_tile_at(a, n, i0[r] + i, k0 + k), at);
								ttx_l1_write(t, A0, blk, mt[r] * kt * at);
								for (size_t jj = 0; jj < nt[q]; jj++)
									for (size_t k = 0; k < kt; k++)
										memcpy(blk + (jj * kt + k) * bt, ops_tile_at(b, nb, k0 + k, j0[q] + jj), bt);
								ttx_l1_write(t, B0, blk, nt[q] * kt * bt);
								continue;
							}
							if (mt[r]) {
								dm_init(g, j, DM_NC, 0);
								struct ttx_dm_args *d = &j->args[DM_NC];
								if (q == 0) {
									for (size_t i = 0; i < mt[r] && st == TTX_OK; i++)
										st = dm_run(c, d, &ba, (uint32_t)(A0 + i * kt * at),
										            (n * Mt + i0[r] + i) * Kt + k0, kt, 1);
									if (C > 1) {
										d->mc_len = (uint32_t)(mt[r] * kt * at), d->mc_addr = A0;
										d->mc_rect = rect(g, 1, g->x[0], g->y[r], g->x[C - 1], g->y[r]);
										d->mc_dests = (uint32_t)(C - 1), d->mc_sem = TTX_DM_SEM(0);
										for (size_t o = 1; o < C; o++)
											g->sem_seen[r][o][0]++;
									}
								} else {
									d->wait_sem = TTX_DM_SEM(0), d->wait_value = g->sem_seen[r][q][0];
								}
							}
							if (nt[q]) {
								dm_init(g, j, DM_B, 0);
								struct ttx_dm_args *d = &j->args[DM_B];
								if (r == 0) {
									for (size_t jj = 0; jj < nt[q] && st == TTX_OK; jj++)
										st = dm_run(c, d, &bb, (uint32_t)(B0 + jj * kt * bt),
										            (nb * Kt + k0) * Nt + j0[q] + jj, kt, Nt);
									if (R > 1) {
										d->mc_len = (uint32_t)(nt[q] * kt * bt), d->mc_addr = B0;
										d->mc_rect = rect(g, 0, g->x[q], g->y[0], g->x[q], g->y[R - 1]);
										d->mc_dests = (uint32_t)(R - 1), d->mc_sem = TTX_DM_SEM(1);
										for (size_t o = 1; o < R; o++)
											g->sem_seen[o][q][1]++;
									}
								} else {
									d->wait_sem = TTX_DM_SEM(1), d->wait_value = g->sem_seen[r][q][1];
								}
							}
						}
					if (st != TTX_OK || (st = run_phase(c, jobs)) != TTX_OK)
						break;
					/* compute: the 1 x 1 op's matmul kernel on the tile's block */
					jobs_clear(jobs);
					for (size_t r = 0; r < R; r++)
						for (size_t q = 0; q < C; q++) {
							if (!mt[r] || !nt[q])
								continue;
							struct job *j = &jobs[r][q];
							j->compute = 1, j->kernel = "matmul.s", j->syms = s;
							ops_sym(&j->syms, "MT", (int64_t)mt[r]), ops_sym(&j->syms, "NT", (int64_t)nt[q]);
							ops_sym(&j->syms, "KT", (int64_t)kt), ops_sym(&j->syms, "L1_ACC", kb > 0);
						}
					if ((st = run_phase(c, jobs)) != TTX_OK)
						break;
					size_t work = 0;
					for (size_t r = 0; r < R; r++)
						for (size_t q = 0; q < C; q++)
							work += mt[r] * nt[q] * kt;
					ops_progress(c, (double)work);
				}
				if (st != TTX_OK)
					break;
				/* the partial sums to the output format */
				if (acc_f != out_f) {
					jobs_clear(jobs);
					for (size_t r = 0; r < R; r++)
						for (size_t q = 0; q < C; q++) {
							if (!mt[r] || !nt[q])
								continue;
							struct job *j = &jobs[r][q];
							j->compute = 1, j->kernel = "unary.s", j->syms = conv;
							ops_sym(&j->syms, "NT", (int64_t)(mt[r] * nt[q]));
						}
					if ((st = run_phase(c, jobs)) != TTX_OK)
						break;
				}
				/* data out: B writes the block's rows to C */
				jobs_clear(jobs);
				for (size_t r = 0; r < R && st == TTX_OK; r++)
					for (size_t q = 0; q < C && st == TTX_OK; q++) {
						if (!mt[r] || !nt[q])
							continue;
						if (c->p.shard) {
							for (size_t i = 0; i < mt[r]; i++)
								ttx_l1_read(g->tile[r][q], (uint32_t)(OUT0 + i * nt[q] * ot),
								            ops_tile_at(out, n, i0[r] + i, j0[q]), nt[q] * ot);
							continue;
						}
						dm_init(g, &jobs[r][q], DM_B, 1);
						for (size_t i = 0; i < mt[r] && st == TTX_OK; i++)
							st = dm_run(c, &jobs[r][q].args[DM_B], &bc, (uint32_t)(OUT0 + i * nt[q] * ot),
							            (n * Mt + i0[r] + i) * Nt + j0[q], nt[q], 1);
					}
				if (st == TTX_OK)
					st = run_phase(c, jobs);
			}
	}
	free(jobs), free(blk);
	if (st == TTX_OK && !c->p.shard)
		st = dram_io(c, &bc, 0, out->bytes, a->batch * Mt * Nt, 0);
done:
	if (st != TTX_OK)
		ops_tiled_free(out);
	return st;
}
