/* Embedding libttx: several tiles on several threads, and one tile driven
 * step by step by its host.  Build against an installed ttx:
 *
 *     cc embed.c $(pkg-config --cflags --libs ttx) -lpthread -o embed
 *
 * Each tile runs the same SFPU program (x = 1; 20 times x = x * 1.5 + 0.25)
 * and the results must agree; the stepped tile runs it 3 instructions at a
 * time (ttx_run's budget), counting the retired instructions in the trace
 * callback, as an outer simulator interleaving tiles with its clock would. */
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
	int stepped;
	uint32_t result;
	unsigned long traced, steps;
	int ok;
};

static void count(void *ctx, unsigned thread, uint32_t word)
{
	(void)thread, (void)word;
	((struct job *)ctx)->traced++;
}

static void *run_tile(void *arg)
{
	struct job *j = arg;
	struct ttx_options opt = { .engine = j->stepped ? TTX_ENGINE_INTERP : TTX_ENGINE_AUTO };
	if (j->stepped)
		opt.trace = count, opt.trace_ctx = j;
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
		while ((st = ttx_run(t, 3)) == TTX_LIMIT)
			j->steps++;
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
	struct job jobs[TILES] = { { .stepped = 1 } };
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
	good &= jobs[0].traced == 23 && jobs[0].steps == 8;
	return good ? 0 : 1;
}
