/* Embedding libttx: several tiles on several threads, and two tiles driven
 * step by step by their host.  Build against an installed ttx:
 *
 *     cc embed.c $(pkg-config --cflags --libs ttx) -lpthread -o embed
 *
 * Each tile runs the same SFPU program (x = 1; 20 times x = x * 1.5 + 0.25)
 * and the results must agree.  One stepped tile runs it 3 instructions at a
 * time (ttx_run's budget), counting the retired instructions in the trace
 * callback; the other 8 device cycles at a time (ttx_run_cycles, with the
 * cycle model on), counting the cycle model's placements -- as an outer
 * simulator interleaving tiles with its clock would. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <ttx.h>

#define TILES 4

static const char program[] =
	"SFPLOADI 0, 0, 0x3F80      # x = 1.0\n"
	"SFPLOADI 1, 0, 0x3FC0      # 1.5\n"
	"SFPLOADI 2, 0, 0x3E80      # 0.25\n"
	".rept 20\n"
	"SFPMAD 0, 1, 2, 0, 0\n"
	".endr\n";

struct job {
	int stepped;              /* 1: by instructions, 2: by device cycles */
	uint32_t result;
	unsigned long traced, steps;
	int ok;
};

static void count(void *ctx, unsigned thread, uint32_t word)
{
	(void)thread, (void)word;
	((struct job *)ctx)->traced++;
}

static void placed(void *ctx, const struct ttx_timing_event *e)
{
	((struct job *)ctx)->traced += e->count;
}

static void *run_tile(void *arg)
{
	struct job *j = arg;
	struct ttx_options opt = { .engine = j->stepped ? TTX_ENGINE_INTERP : TTX_ENGINE_AUTO };
	if (j->stepped == 1)
		opt.trace = count, opt.trace_ctx = j;
	if (j->stepped == 2)
		opt.timing = 1, opt.timing_event = placed, opt.timing_ctx = j;
	struct ttx_tile *t = ttx_tile_new(&opt);
	struct ttx_program *p = NULL;
	char err[256];
	if (!t || ttx_program_parse(program, strlen(program), "embed.s", &p, err, sizeof(err)) != TTX_OK) {
		fprintf(stderr, "embed: %s\n", t ? err : "out of memory");
		return NULL;
	}
	/* Dst from a plain array (flat: 512 rows x 16), read back the same way */
	static uint32_t dst_in[TTX_DST_ROWS32 * TTX_COLS];
	uint32_t dst_out[TTX_DST_ROWS32 * TTX_COLS];
	for (unsigned i = 0; i < TTX_DST_ROWS32 * TTX_COLS; i++)
		dst_in[i] = 0x3F800000u + i;
	ttx_dst32_write(t, dst_in);
	ttx_dst32_read(t, dst_out);
	int dst_ok = memcmp(dst_in, dst_out, sizeof(dst_out)) == 0;
	enum ttx_status st;
	if (j->stepped) {
		/* push the words, then advance 3 instructions a step */
		for (size_t i = 0; i < ttx_program_size(p); i++)
			ttx_push(t, ttx_program_item(p, i)->thread, ttx_program_item(p, i)->word);
		if (j->stepped == 1) {
			while ((st = ttx_run(t, 3)) == TTX_LIMIT)
				j->steps++;
		} else {
			/* one instruction a cycle: steps end at cycles 8, 16, 24 */
			while ((st = ttx_run_cycles(t, 8 * (j->steps + 1), 0)) == TTX_LIMIT)
				j->steps++;
		}
		j->steps++;
	} else {
		st = ttx_program_run(t, p, 0);
	}
	uint32_t lanes[TTX_LANES];
	ttx_lreg_read(t, 0, lanes);
	j->result = lanes[0];
	j->ok = st == TTX_OK && dst_ok;
	ttx_program_free(p);
	ttx_tile_destroy(t);
	return NULL;
}

int main(void)
{
	printf("libttx %s (header %d.%d.%d), JIT %s\n", ttx_version(), TTX_VERSION_MAJOR, TTX_VERSION_MINOR,
	       TTX_VERSION_PATCH, ttx_jit_available() ? "available" : "not built");
	struct job jobs[TILES] = { { .stepped = 1 }, { .stepped = 2 } };
	pthread_t tid[TILES];
	for (int i = 0; i < TILES; i++)
		pthread_create(&tid[i], NULL, run_tile, &jobs[i]);
	int good = 1;
	for (int i = 0; i < TILES; i++) {
		pthread_join(tid[i], NULL);
		good &= jobs[i].ok && jobs[i].result == jobs[0].result;
	}
	printf("%d tiles on %d threads: x = 0x%08X on every tile: %s\n", TILES, TILES, jobs[0].result,
	       good ? "yes" : "NO");
	printf("stepped tile: %lu steps of 3 instructions, %lu instructions traced\n", jobs[0].steps, jobs[0].traced);
	printf("stepped tile: %lu steps of 8 device cycles, %lu instructions placed\n", jobs[1].steps, jobs[1].traced);
	good &= jobs[0].traced == 23 && jobs[0].steps == 8 && jobs[1].traced == 23 && jobs[1].steps == 3;
	return good ? 0 : 1;
}
