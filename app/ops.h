/* What the tensor operations (app/ops.c) share with their grid versions
 * (app/gridops.c).  Internal to the top floor. */
#ifndef TTX_OPS_H
#define TTX_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttx.h"

/* L1 of a tile running an op's kernel */
#define L1_IN   0x010000u   /* input tiles (and a second input at L1_IN2) */
#define L1_IN2  0x070000u
#define L1_OUT  0x0D0000u   /* output tiles, up to L1_END */
#define L1_END  0x16E000u   /* the end of L1 (TTX_L1_SIZE) */
#define MAX_NT  64u         /* tiles per kernel run */

enum sfpu_fn {
	FN_COPY, FN_EXP, FN_LOG, FN_RECIP, FN_SQRT, FN_RSQRT, FN_SIGMOID, FN_TANH, FN_GELU, FN_GELU_TANH,
	FN_SILU, FN_RELU, FN_LEAKY_RELU, FN_ABS, FN_SQUARE, FN_POWER, FN_NEG,
};

struct grid;

/* One operation being run. */
struct opc {
	const char *op;              /* its name */
	struct ttx_tile *t;          /* the tile (a grid: the one being set up) */
	struct grid *grid;           /* NULL: one tile, the host moving data (today's ops) */
	struct ttx_op_params p;
	char *err;
	size_t errlen;
	unsigned nin;                /* inputs */
	double done, total;          /* progress, in tiles */
	int stop;                    /* the progress callback asked to stop */
};

struct syms {
	struct ttx_asm_symbol v[64];
	size_t n;
};

/* A batch of matrices as tile images of one format: batch x tr x tc tiles
   of tile_bytes each, in that order. */
struct tiled {
	uint8_t *bytes;
	size_t batch, tr, tc, tile_bytes;
	enum ttx_format f;
};

/* A kernel of the SFPU family run over a stream of units of work: unit u
   reads in_per tiles of the input stream from L1 (in order, at L1_IN) and
   writes out_per tiles (at L1_OUT).  As many units go into one kernel run
   as L1 and max_units allow; the kernel gets their number as `count_sym`.
   `extra` (extra_len bytes) is written at L1_IN2 for every run. */
struct stream {
	const char *kernel, *count_sym;
	size_t in_per, out_per, max_units;
	const uint8_t *extra;
	size_t extra_len;
};

enum ttx_status ops_fail(struct opc *c, enum ttx_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ops_progress(struct opc *c, double tiles);
void ops_sym(struct syms *s, const char *name, int64_t value);
/* Kernel `name` as the C programs on RISCV T0-T2 of c->t, released. */
enum ttx_status ops_start_riscv(struct opc *c, const char *name, const struct syms *s);
/* Reset the tile for a kernel run, keeping its statistics and the cycle
   model's place (and with keep_l1, L1). */
void ops_clear_tile(struct ttx_tile *t, int keep_l1);
enum ttx_status ops_input_path(struct opc *c, enum ttx_format f, struct syms *s);
enum ttx_status ops_output_path(struct opc *c, enum ttx_format f, struct syms *s);
enum ttx_status ops_src_format(struct opc *c, enum ttx_format f, unsigned *out);
void ops_fn_syms(struct syms *s, int fn, double param);
uint8_t *ops_tile_at(const struct tiled *m, size_t b, size_t i, size_t j);
enum ttx_status ops_alloc_tiled(struct opc *c, struct tiled *m, enum ttx_format f, size_t batch, size_t tr,
                                size_t tc);
void ops_tiled_free(struct tiled *m);

/* ---- the grid (app/gridops.c) ---- */

/* A chip with an R x C grid of worker tiles for the op (p->grid_rows,
   p->grid_cols); TTX_EINVAL for a grid the chip does not have. */
enum ttx_status grid_open(struct opc *c);
void grid_close(struct opc *c);
/* run_stream's work on the grid: the units spread over the tiles, `per`
   at most a kernel run; inputs and outputs through DRAM (or L1 shards). */
enum ttx_status grid_stream(struct opc *c, const struct stream *k, struct syms *s, const uint8_t *in,
                            enum ttx_format in_f, size_t units, size_t per, enum ttx_format out_f, uint8_t *out);
/* C = A B on the grid, 2-D multicast (matmul_tiles' work). */
enum ttx_status grid_matmul(struct opc *c, const struct tiled *a, const struct tiled *b, enum ttx_format out_f,
                            struct tiled *out);

#endif
