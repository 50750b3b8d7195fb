/* --perfetto: the cycle model's placements as a Chrome JSON trace, which
 * ui.perfetto.dev and chrome://tracing open (docs/timing.md).
 *
 * One process, a track per Tensix thread (its issue slots, gaps are
 * stalls), a track per unit (the cycles it works) and a track per RISC-V
 * core that ran (running and waiting spans); 1 cycle = 1 ns.
 * Slices on a track never overlap: one that would start inside the
 * previous one starts where it ends.  Consecutive slices of the same
 * instruction that touch are merged ("SFPMAD x12"); past MERGE_ALL_AFTER
 * slices, any slices of a track closer than MERGE_GAP cycles merge into
 * one "burst", which bounds the file on long runs.  A utilisation counter
 * per unit is written at the end, over at most MAX_WINDOWS windows. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MERGE_ALL_AFTER 100000
#define MERGE_GAP 64
#define MAX_WINDOWS 2048

enum { THREAD_TRACKS = TTX_THREADS, CORE_TRACKS = TTX_THREADS + TTX_UNIT_COUNT,
       NTRACKS = CORE_TRACKS + TTX_CORE_COUNT };
/* slice kinds past the opcodes */
enum { BURST = 256, CORE_RUNNING = 512, CORE_WAITING = 513 /* + the wait reason */ };

struct slice {
	int open;
	uint32_t opcode;        /* 256: a burst of mixed instructions */
	uint64_t start, end, count;
};

struct perfetto {
	FILE *f;
	uint64_t written;
	struct slice pending[NTRACKS];
	uint64_t track_end[NTRACKS];
	/* unit utilisation: busy cycles per window of `window` cycles */
	uint64_t window;
	uint64_t *busy[TTX_UNIT_COUNT];
	size_t nwindows;
	unsigned cores_named;   /* core tracks whose names are written */
};

static const char *track_name(unsigned track, char *buf, size_t len)
{
	if (track < THREAD_TRACKS)
		snprintf(buf, len, "T%u issue", track);
	else if (track < CORE_TRACKS)
		snprintf(buf, len, "unit %s", ttx_unit_name((enum ttx_unit)(track - THREAD_TRACKS)));
	else
		snprintf(buf, len, "RISC-V %s", ttx_core_name((enum ttx_core)(track - CORE_TRACKS)));
	return buf;
}

static void name_track(struct perfetto *pf, unsigned k)
{
	char name[32];
	fprintf(pf->f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}",
	        k + 1, track_name(k, name, sizeof(name)));
	fprintf(pf->f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
	        k + 1, k);
}

struct perfetto *perfetto_open(FILE *f)
{
	struct perfetto *pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	pf->f = f;
	pf->window = 1000;
	fprintf(pf->f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	fprintf(pf->f, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"ttx Tensix tile\"}}");
	for (unsigned k = 0; k < CORE_TRACKS; k++)
		name_track(pf, k);
	return pf;
}

static void write_slice(struct perfetto *pf, unsigned track, const struct slice *s)
{
	const char *name = s->opcode < BURST ? ttx_opcode_name(s->opcode)
	                   : s->opcode == BURST ? "burst"
	                   : s->opcode == CORE_RUNNING ? "running"
	                   : ttx_core_wait_name((enum ttx_core_wait_reason)(s->opcode - CORE_WAITING));
	if (!name)
		name = "?";
	fprintf(pf->f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%" PRIu64 ".%03u,\"dur\":%" PRIu64 ".%03u,"
	        "\"name\":\"%s%s", track + 1, s->start / 1000, (unsigned)(s->start % 1000), (s->end - s->start) / 1000,
	        (unsigned)((s->end - s->start) % 1000), name, s->count > 1 ? " x" : "");
	if (s->count > 1)
		fprintf(pf->f, "%" PRIu64, s->count);
	fprintf(pf->f, "\",\"args\":{\"cycle\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"instructions\":%" PRIu64 "}}",
	        s->start, s->end - s->start, s->count);
	pf->written++;
}

/* Busy cycles [s, e) of a unit into the utilisation windows, halving the
   resolution when the run outgrows MAX_WINDOWS. */
static void count_busy(struct perfetto *pf, unsigned unit, uint64_t s, uint64_t e)
{
	while (e > pf->window * MAX_WINDOWS) {
		for (unsigned u = 0; u < TTX_UNIT_COUNT; u++) {
			if (!pf->busy[u])
				continue;
			for (size_t w = 0; w < MAX_WINDOWS / 2; w++)   /* in place: reads at or after w */
				pf->busy[u][w] = pf->busy[u][2 * w] + pf->busy[u][2 * w + 1];
			memset(pf->busy[u] + MAX_WINDOWS / 2, 0, MAX_WINDOWS / 2 * sizeof(uint64_t));
		}
		pf->window *= 2;
		pf->nwindows = (pf->nwindows + 1) / 2;
	}
	if (!pf->busy[unit] && !(pf->busy[unit] = calloc(MAX_WINDOWS, sizeof(uint64_t))))
		return;   /* the counters are optional */
	for (uint64_t c = s; c < e;) {
		uint64_t w = c / pf->window, stop = (w + 1) * pf->window < e ? (w + 1) * pf->window : e;
		pf->busy[unit][w] += stop - c;
		c = stop;
	}
	if ((e - 1) / pf->window + 1 > pf->nwindows)
		pf->nwindows = (size_t)((e - 1) / pf->window + 1);
}

static void add(struct perfetto *pf, unsigned track, uint32_t opcode, uint64_t start, uint64_t end, uint64_t count)
{
	if (start < pf->track_end[track])
		start = pf->track_end[track];
	if (end <= start)
		end = start + 1;
	pf->track_end[track] = end;
	if (track >= THREAD_TRACKS && track < CORE_TRACKS)
		count_busy(pf, track - THREAD_TRACKS, start, end);
	struct slice *p = &pf->pending[track];
	int merge_all = pf->written >= MERGE_ALL_AFTER;
	if (p->open && ((p->opcode == opcode && p->end == start) || (merge_all && start - p->end < MERGE_GAP))) {
		if (p->opcode != opcode)
			p->opcode = BURST;
		p->end = end;
		p->count += count;
		return;
	}
	if (p->open)
		write_slice(pf, track, p);
	*p = (struct slice){ 1, opcode, start, end, count };
}

void perfetto_event(void *ctx, const struct ttx_timing_event *e)
{
	struct perfetto *pf = ctx;
	uint32_t op = e->count > 1 ? BURST : e->word >> 24;
	add(pf, e->thread, op, e->issue, e->count > 1 ? e->issue + e->count : e->issue + 1, e->count);
	if (e->unit_free && (unsigned)e->unit < TTX_UNIT_COUNT)
		add(pf, THREAD_TRACKS + e->unit, op, e->issue, e->unit_free, e->count);
}

void perfetto_core_event(void *ctx, const struct ttx_core_event *e)
{
	struct perfetto *pf = ctx;
	unsigned track = CORE_TRACKS + (unsigned)e->core;
	if (!(pf->cores_named >> e->core & 1)) {
		name_track(pf, track);
		pf->cores_named |= 1u << e->core;
	}
	add(pf, track, e->waiting ? CORE_WAITING + (uint32_t)e->wait : CORE_RUNNING, e->start, e->end,
	    e->waiting ? 0 : e->insns);
}

int perfetto_finish(struct perfetto *pf, const struct ttx_cycles *c)
{
	for (unsigned k = 0; k < NTRACKS; k++)
		if (pf->pending[k].open)
			write_slice(pf, k, &pf->pending[k]);
	/* utilisation counters, one series per unit that worked */
	for (size_t w = 0; w < pf->nwindows; w++) {
		fprintf(pf->f, ",\n{\"ph\":\"C\",\"pid\":1,\"name\":\"utilisation %%\",\"ts\":%" PRIu64 ".%03u,\"args\":{",
		        w * pf->window / 1000, (unsigned)(w * pf->window % 1000));
		const char *sep = "";
		for (unsigned u = 0; u < TTX_UNIT_COUNT; u++)
			if (pf->busy[u]) {
				fprintf(pf->f, "%s\"%s\":%.1f", sep, ttx_unit_name((enum ttx_unit)u),
				        100.0 * (double)pf->busy[u][w] / (double)pf->window);
				sep = ",";
			}
		fprintf(pf->f, "}}");
	}
	fprintf(pf->f, "\n],\"metadata\":{\"device_cycles\":%" PRIu64 ",\"cycle_ns\":1}}\n", c->device_cycles);
	int bad = ferror(pf->f);
	for (unsigned u = 0; u < TTX_UNIT_COUNT; u++)
		free(pf->busy[u]);
	free(pf);
	return bad ? -1 : 0;
}
