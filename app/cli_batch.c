/* ttx batch: many `run` and `op` commands from a jobs file on a pool of
 * threads (docs/batch.md).  Each job is one command, its arguments split
 * as a shell would; jobs run in any order on the workers, each on tiles of
 * its own, and what they print is reported in file order afterwards, so
 * the outcome is the same whatever the thread count.  Under mpirun (a
 * build with MPI) rank r takes jobs r, r + R, r + 2R, ... and rank 0
 * gathers what they printed and reports it the same way. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

#ifdef TTX_HAVE_MPI
#include <mpi.h>
#endif

#define MAX_JOBS_FILE (64u << 20)   /* bytes: a jobs file is text, not data */
#define MAX_WORKERS 1024

struct job {
	unsigned line;
	int argc;
	char *argv[CLI_MAX_ARGS + 1];
	char *words;                 /* the split line's storage */
	char *err_text, *out_text;   /* what the command printed */
	size_t err_len, out_len;
	int rc;
	double seconds;
	uint64_t started_ms;         /* when a worker took it (ms since the epoch of cli_seconds(); 0: not yet) */
	int stop;                    /* its ttx_options.interrupt: time is up, or the batch is interrupted */
};

/* The jobs a process runs: jobs[first], jobs[first + stride], ... */
struct pool {
	struct job *jobs;
	size_t n, first, stride;
	struct ttx_jit_cache *jit_cache;   /* shared by every job's tile */
	uint64_t max_insns;                /* --job-max-insns */
	double timeout;                    /* --job-timeout */
	const int *interrupt;              /* the batch's own (SIGINT): no job starts after it */
	atomic_size_t next, done;
};

static void run_job(struct job *j, const struct pool *p)
{
	FILE *err = open_memstream(&j->err_text, &j->err_len);
	FILE *out = open_memstream(&j->out_text, &j->out_len);
	double t0 = cli_seconds();
	__atomic_store_n(&j->started_ms, (uint64_t)(t0 * 1e3) + 1, __ATOMIC_RELEASE);
	if (!err || !out) {
		j->rc = EXIT_USAGE;
	} else if (__atomic_load_n(p->interrupt, __ATOMIC_RELAXED)) {
		fprintf(err, "ttx: not run: the batch was interrupted\n");
		j->rc = EXIT_INTERRUPTED;
	} else {
		struct cli_io io = { err, out, p->jit_cache, &j->stop, p->max_insns };
		j->rc = strcmp(j->argv[0], "run") == 0 ? cmd_run(&io, j->argc, j->argv) : cmd_op(&io, j->argc, j->argv);
		if (j->rc == EXIT_INTERRUPTED && !__atomic_load_n(p->interrupt, __ATOMIC_RELAXED))
			fprintf(err, "ttx: stopped after %.3g s, the job's time limit (--job-timeout)\n", p->timeout);
	}
	j->seconds = cli_seconds() - t0;
	if (err)
		fclose(err);
	if (out)
		fclose(out);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->n)
			return NULL;
		run_job(&p->jobs[p->first + i * p->stride], p);
		atomic_fetch_add(&p->done, 1);
	}
}

/* The jobs of a file's text (len bytes, NULs included); malformed lines
   reported as FILE:LINE and counted in *bad. */
static struct job *parse_jobs(const char *path, char *text, size_t len, size_t *njobs, int *bad, int quiet)
{
	size_t cap = 16, n = 0;
	struct job *jobs = malloc(cap * sizeof(*jobs));
	unsigned line = 0;
	for (char *p = text, *end_text = text + len; jobs && p < end_text;) {
		char *end = memchr(p, '\n', (size_t)(end_text - p));
		if (!end)
			end = end_text;
		*end = '\0';
		line++;
		char *s = p;
		p = end + 1;
		if (n == cap) {
			struct job *nj = realloc(jobs, 2 * cap * sizeof(*jobs));
			if (!nj)
				break;
			jobs = nj, cap *= 2;
		}
		struct job *j = &jobs[n];
		memset(j, 0, sizeof(*j));
		j->line = line;
		j->words = malloc((size_t)(end - s) + 1);
		const char *why = "out of memory";
		size_t column = 0;
		j->argc = j->words ? cli_jobs_line(s, (size_t)(end - s), j->words, j->argv, &why, &column) : -1;
		if (j->argc > 0) {
			n++;
			continue;
		}
		if (j->argc < 0) {
			(*bad)++;
			if (quiet)
				;
			else if (column)
				fprintf(stderr, "%s:%u: %s (byte 0x%02X at column %zu): not a jobs line\n", path, line, why,
				        (unsigned char)s[column - 1], column);
			else if (j->words && strcmp(why, "expected a 'run' or 'op' command") == 0)
				fprintf(stderr, "%s:%u: %s, found '%s'\n", path, line, why, j->argv[0]);
			else
				fprintf(stderr, "%s:%u: %s\n", path, line, why);
		}
		free(j->words);
	}
	if (!jobs)
		fprintf(stderr, "ttx: out of memory\n");
	*njobs = n;
	return jobs;
}

/* Two jobs (or one job twice) writing the same file would race: refused
   before anything runs, naming both lines.  0, or -1 after the messages. */
struct written { char *id; const char *name; unsigned line; };

static int cmp_written(const void *a, const void *b)
{
	const struct written *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int check_outputs(const char *path, const struct job *jobs, size_t n)
{
	size_t cap = 0, k = 0;
	struct written *w = NULL;
	int bad = 0;
	for (size_t i = 0; i < n && !bad; i++) {
		const char *files[2 * CLI_MAX_ARGS];
		const struct cli_opt *opts = strcmp(jobs[i].argv[0], "run") == 0 ? run_options : op_options;
		int m = cli_outputs(jobs[i].argc, (char **)jobs[i].argv, opts, files, 2 * CLI_MAX_ARGS);
		for (int f = 0; f < m; f++) {
			char *id = output_identity(files[f]);
			if (!id)
				continue;   /* standard output (the job's own), a device, a FIFO */
			if (k == cap) {
				struct written *nw = realloc(w, (cap = cap ? 2 * cap : 64) * sizeof(*w));
				if (!nw) {
					free(id);
					bad = 1;
					fprintf(stderr, "ttx: out of memory\n");
					break;
				}
				w = nw;
			}
			w[k++] = (struct written){ id, files[f], jobs[i].line };
		}
	}
	if (!bad && k)
		qsort(w, k, sizeof(*w), cmp_written);
	for (size_t i = 1; !bad && i < k; i++)
		if (strcmp(w[i].id, w[i - 1].id) == 0) {
			if (w[i].line == w[i - 1].line)
				fprintf(stderr, "%s:%u: the job writes %s twice\n", path, w[i].line, w[i].name);
			else
				fprintf(stderr, "%s:%u and %s:%u: both jobs write %s%s%s\n", path, w[i - 1].line, path,
				        w[i].line, w[i].name, strcmp(w[i].name, w[i - 1].name) ? " = " : "",
				        strcmp(w[i].name, w[i - 1].name) ? w[i - 1].name : "");
			bad = -1;
		}
	for (size_t i = 0; i < k; i++)
		free(w[i].id);
	free(w);
	return bad ? -1 : 0;
}

static int parse_count(const char *s, unsigned long *v)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* The command, shortened for the summary table. */
static void describe(const struct job *j, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < j->argc; i++) {
		int w = snprintf(buf + k, len - k, "%s%s", i ? " " : "", j->argv[i]);
		if (w < 0 || (size_t)w >= len - k) {
			strcpy(buf + len - 4, "...");
			return;
		}
		k += (size_t)w;
	}
}

#ifdef TTX_HAVE_MPI
/* Launched by mpirun (Open MPI, or a PMI launcher): only then does ttx
   batch start MPI, so that a plain run needs no MPI runtime. */
static int under_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

static void put(char **p, const void *x, size_t n)
{
	memcpy(*p, x, n);
	*p += n;
}

/* Rank 0 gets every rank's results (exit code, time, what the job
   printed) into its jobs array.  0, or -1 when a buffer would not fit
   MPI's int counts. */
static int gather_results(struct job *jobs, size_t n, int rank, int ranks)
{
	size_t bytes = 0;
	for (size_t i = (size_t)rank; i < n; i += (size_t)ranks)
		bytes += 2 * sizeof(uint64_t) + sizeof(int) + sizeof(double) + jobs[i].err_len + jobs[i].out_len;
	int mine = bytes > 0x7FFFFFFF ? -1 : (int)bytes, *counts = NULL, *displs = NULL, bad = mine < 0, any_bad;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any_bad)
		return -1;
	char *buf = malloc(bytes + 1), *p = buf, *all = NULL;
	for (size_t i = (size_t)rank; buf && i < n; i += (size_t)ranks) {
		uint64_t el = jobs[i].err_len, ol = jobs[i].out_len;
		put(&p, &jobs[i].rc, sizeof(int));
		put(&p, &jobs[i].seconds, sizeof(double));
		put(&p, &el, sizeof(el));
		put(&p, &ol, sizeof(ol));
		put(&p, jobs[i].err_text ? jobs[i].err_text : "", el);
		put(&p, jobs[i].out_text ? jobs[i].out_text : "", ol);
	}
	if (rank == 0) {
		counts = malloc((size_t)ranks * sizeof(int));
		displs = malloc((size_t)ranks * sizeof(int));
	}
	MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	long total = 0;
	for (int r = 0; rank == 0 && r < ranks; r++)
		displs[r] = (int)total, total += counts[r];
	if (rank == 0 && total > 0x7FFFFFFF)
		total = 0;   /* cannot happen with each part checked: a safe size */
	if (rank == 0)
		all = malloc((size_t)total + 1);
	MPI_Gatherv(buf, mine, MPI_CHAR, all, counts, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
	for (int r = 1; rank == 0 && all && r < ranks; r++) {
		const char *q = all + displs[r];
		for (size_t i = (size_t)r; i < n; i += (size_t)ranks) {
			struct job *j = &jobs[i];
			uint64_t el, ol;
			memcpy(&j->rc, q, sizeof(int)), q += sizeof(int);
			memcpy(&j->seconds, q, sizeof(double)), q += sizeof(double);
			memcpy(&el, q, sizeof(el)), q += sizeof(el);
			memcpy(&ol, q, sizeof(ol)), q += sizeof(ol);
			free(j->err_text), free(j->out_text);
			j->err_text = malloc(el + 1), j->out_text = malloc(ol + 1);
			if (j->err_text)
				memcpy(j->err_text, q, el), j->err_text[el] = '\0', j->err_len = el;
			if (j->out_text)
				memcpy(j->out_text, q + el, ol), j->out_text[ol] = '\0', j->out_len = ol;
			q += el + ol;
		}
	}
	free(buf), free(all), free(counts), free(displs);
	return 0;
}
#endif

const struct cli_opt batch_options[] = {
	{ "jobs", 'j', "N", "worker threads (default: every core)", 0 },
	{ "progress", 'p', NULL, "a progress line on stderr even when it is not a terminal", 0 },
	{ "job-max-insns", 'm', "N", "each job's instruction budget: a run stops after N instructions (its "
	  "--max-insns, unless it gives one), an op after the kernel run that passes N; exit 1", 0 },
	{ "job-timeout", 't', "SECONDS", "each job's wall-time limit: a job still running after it is stopped "
	  "(exit 130 for that job, its outputs removed)", 0 },
	{ NULL, 0, NULL, NULL, 0 },
};

int cmd_batch(const struct cli_io *io, int argc, char **argv)
{
	const char *path = NULL;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long workers = cpus > 0 ? (unsigned long)cpus : 1;
	uint64_t max_insns = 0;
	double timeout = 0;
	int progress = isatty(STDERR_FILENO), c;
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	while ((c = cli_next(&scan, batch_options)) != CLI_END) {
		if (c == CLI_POSITIONAL && !path)
			path = scan.arg;
		else if (c == CLI_POSITIONAL)
			return usage_error(stderr, "batch: expected one JOBS file, got '%s' too", scan.arg);
		else if (c == 'j' && (parse_count(scan.arg, &workers) || workers < 1 || workers > MAX_WORKERS))
			return usage_error(stderr, "--jobs '%s': expected a number of threads, 1 to 1024", scan.arg);
		else if (c == 'p')
			progress = 1;
		else if (c == 'm' && (parse_u64(scan.arg, &max_insns) || max_insns == 0))
			return usage_error(stderr, "--job-max-insns '%s': expected a positive number", scan.arg);
		else if (c == 't') {
			char *end;
			timeout = strtod(scan.arg, &end);
			if (end == scan.arg || *end || !(timeout > 0) || timeout > 1e9)
				return usage_error(stderr, "--job-timeout '%s': expected a positive number of seconds", scan.arg);
		} else if (c == CLI_BAD)
			return cli_bad_option(stderr, "batch", &scan);
	}
	if (!path)
		return usage_error(stderr, "batch: usage: ttx batch JOBS [--jobs N] [--progress]%s", "");

	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ttx: %s: %s\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	char *text = malloc(MAX_JOBS_FILE + 1);
	size_t len = text ? fread(text, 1, MAX_JOBS_FILE + 1, f) : 0;
	int read_error = ferror(f);
	fclose(f);
	if (!text || read_error || len > MAX_JOBS_FILE) {
		fprintf(stderr, "ttx: %s: %s\n", path, !text ? "out of memory" : read_error ? "read error"
		        : "larger than 64 MiB: not a jobs file");
		free(text);
		return EXIT_USAGE;
	}
	text[len] = '\0';
	int rank = 0, ranks = 1;
#ifdef TTX_HAVE_MPI
	int mpi = under_mpirun();
	if (mpi) {
		int provided;   /* only this thread calls MPI */
		MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	}
#endif
	int bad = 0;
	size_t n;
	struct job *jobs = parse_jobs(path, text, len, &n, &bad, rank != 0);
	free(text);
	if (!jobs)
		return EXIT_USAGE;
	if (check_outputs(path, jobs, n)) {
		for (size_t i = 0; i < n; i++)
			free(jobs[i].words);
		free(jobs);
#ifdef TTX_HAVE_MPI
		if (mpi)
			MPI_Finalize();
#endif
		return EXIT_USAGE;
	}

	/* this process's jobs: rank, rank + ranks, ... */
	size_t mine = n > (size_t)rank ? (n - (size_t)rank + (size_t)ranks - 1) / (size_t)ranks : 0;
	/* one JIT code cache for the process: a block compiled for one job runs
	   in all (NULL without the JIT: each job interprets) */
	struct pool pool = { .jobs = jobs, .n = mine, .first = (size_t)rank, .stride = (size_t)ranks,
	                     .jit_cache = ttx_jit_cache_new(), .max_insns = max_insns, .timeout = timeout,
	                     .interrupt = io->interrupt };
	progress &= rank == 0;
	atomic_init(&pool.next, 0);
	atomic_init(&pool.done, 0);
	if (workers > mine)
		workers = mine ? mine : 1;
	pthread_t tid[MAX_WORKERS];
	unsigned long started = 0;
	double t0 = cli_seconds();
	for (; started < workers; started++)
		if (pthread_create(&tid[started], NULL, worker, &pool) != 0)
			break;
	if (started == 0)
		worker(&pool);   /* no thread to be had: run them here */
	/* the watchdog: progress, the jobs' time limits, the batch's interrupt */
	int watch = progress || timeout > 0 || started > 0;
	for (size_t done; watch && (done = atomic_load(&pool.done)) < mine;) {
		double t = cli_seconds(), dt = t - t0, rate = dt > 0 ? (double)done / dt : 0;
		int stop_all = __atomic_load_n(io->interrupt, __ATOMIC_RELAXED);
		for (size_t i = 0; i < mine; i++) {
			struct job *j = &jobs[(size_t)rank + i * (size_t)ranks];
			uint64_t s = __atomic_load_n(&j->started_ms, __ATOMIC_ACQUIRE);
			if (stop_all || (timeout > 0 && s && t - (double)(s - 1) * 1e-3 > timeout))
				__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
		}
		if (progress) {
			fprintf(stderr, "\rttx batch: %zu/%zu jobs, %.1f jobs/s, ETA %.0f s   ", done, mine, rate,
			        rate > 0 ? (double)(mine - done) / rate : 0.0);
			fflush(stderr);
		}
		nanosleep(&(struct timespec){ 0, timeout > 0 && timeout < 2 ? 20000000 : 100000000 }, NULL);
	}
	for (unsigned long i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	ttx_jit_cache_release(pool.jit_cache);
	int rc = 0;
#ifdef TTX_HAVE_MPI
	if (mpi && gather_results(jobs, n, rank, ranks)) {
		if (rank == 0)
			fprintf(stderr, "ttx batch: a rank's job output is over 2 GiB: too large to gather\n");
		rc = EXIT_USAGE;
	}
	if (mpi && rank != 0) {
		for (size_t i = 0; i < n; i++)
			free(jobs[i].words), free(jobs[i].err_text), free(jobs[i].out_text);
		free(jobs);
		MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
		MPI_Finalize();
		return rc;
	}
#endif
	double seconds = cli_seconds() - t0;
	if (progress)
		fprintf(stderr, "\rttx batch: %zu/%zu jobs, %.1f jobs/s%24s\n", n, n, seconds > 0 ? (double)n / seconds : 0,
		        "");

	/* what the jobs printed, in file order: their output on stdout, their
	   messages on stderr with the job's place */
	size_t failed = 0;
	for (size_t i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		fwrite(j->out_text, 1, j->out_len, stdout);
		for (char *m = j->err_text; m && *m;) {
			char *e = strchr(m, '\n');
			int k = e ? (int)(e - m) : (int)strlen(m);
			if (k && m[0] != '\r')
				fprintf(stderr, "%s:%u: %.*s\n", path, j->line, k, m);
			m = e ? e + 1 : m + k;
		}
		failed += j->rc != 0;
	}
	fflush(stdout);
	fprintf(stderr, "ttx batch: %zu jobs (%zu ok, %zu failed", n, n - failed, failed);
	if (bad)
		fprintf(stderr, ", %d malformed line%s skipped", bad, bad == 1 ? "" : "s");
	if (ranks > 1)
		fprintf(stderr, ") on %d ranks", ranks);
	else
		fprintf(stderr, ") on %lu thread%s", started ? started : 1, started == 1 ? "" : "s");
	fprintf(stderr, " in %.3f s\n", seconds);
	/* the table: every job when there are few, else the failed ones */
	int header = 0;
	for (size_t i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		if (n > 50 && j->rc == 0)
			continue;
		if (!header++)
			fprintf(stderr, "%6s  %4s  %9s  %s\n", "line", "exit", "seconds", "command");
		char what[72];
		describe(j, what, sizeof(what));
		fprintf(stderr, "%6u  %4d  %9.3f  %s\n", j->line, j->rc, j->seconds, what);
	}
	for (size_t i = 0; i < n; i++)
		free(jobs[i].words), free(jobs[i].err_text), free(jobs[i].out_text);
	free(jobs);
	if (!rc)
		rc = __atomic_load_n(io->interrupt, __ATOMIC_RELAXED) ? EXIT_INTERRUPTED : failed || bad ? EXIT_FAULT : 0;
#ifdef TTX_HAVE_MPI
	if (mpi) {
		MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
		MPI_Finalize();
	}
#endif
	return rc;
}
