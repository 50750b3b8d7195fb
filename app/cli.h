/* Shared parts of the ttx command line: one file a command (cli_asm.c,
 * cli_run.c, cli_op.c, cli_demo.c, cli_batch.c), main, --help and the man
 * page in cli.c, argument scanning in cli_args.c. */
#ifndef TTX_CLI_H
#define TTX_CLI_H

#include <stdio.h>

#include "ttx.h"

enum { EXIT_FAULT = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

/* Where a command writes: stderr and stdout for the ttx command, buffers
   of its own for each job of ttx batch (which runs commands in threads:
   they keep no state outside their call). */
struct cli_io {
	FILE *err, *out;
	struct ttx_jit_cache *jit_cache;   /* ttx batch: one code cache for all its jobs (or NULL) */
	const int *interrupt;              /* set on SIGINT/SIGTERM, or a batch job's time limit (ttx_options) */
	uint64_t max_insns;                /* ttx batch --job-max-insns: the default budget of run and op (0: none) */
};

/* "ttx: <fmt with arg>" and a pointer to --help on err; EXIT_USAGE. */
int usage_error(FILE *err, const char *fmt, const char *arg);

/* An option of a command.  The same table drives the scanner (cli_next),
   --help and the man page (cli.c), and ttx batch's check that no two jobs
   write one file (the CLI_WRITES options). */
enum { CLI_WRITES = 1, CLI_WRITES_L1 = 2 };   /* the value is a file written; ADDR:LEN:FILE */
struct cli_opt {
	const char *name;     /* without "--"; NULL ends a table */
	int code;
	const char *value;    /* the value's name in help (e.g. "N"); NULL: a flag, which takes none */
	const char *help;     /* for --help and the man page */
	unsigned flags;
};

/* Long options without getopt's global state: "--name value",
   "--name=value", flags, unique abbreviations; other arguments are
   positional wherever they stand, and "--" ends the options.  cli_next
   returns an option's code (its value in scan.arg), CLI_POSITIONAL
   (scan.arg), CLI_BAD (scan.arg: the argument, scan.why: what is wrong
   with it) or CLI_END. */
struct cli_scan {
	int argc;
	char **argv;
	int i;          /* the next argument: 1 to skip the command's name */
	int no_more;    /* after "--" */
	const char *arg;
	const char *why;
};
enum { CLI_END = 0, CLI_POSITIONAL = -1, CLI_BAD = -2 };
int cli_next(struct cli_scan *scan, const struct cli_opt *opts);
/* The usage error for CLI_BAD: "CMD: <why> '<arg>'". */
int cli_bad_option(FILE *err, const char *cmd, const struct cli_scan *scan);
/* The files a command line writes (the CLI_WRITES options' files, "-"
   included), at most max; returns their number, or -1 when the line does
   not scan (its command reports that when it runs). */
int cli_outputs(int argc, char **argv, const struct cli_opt *opts, const char **files, int max);

/* Split a jobs line into at most CLI_MAX_ARGS words as a shell would
   (cli_args.c); buf holds them (strlen(line) + 1 bytes).  Returns the
   count, or -1 with *why. */
#define CLI_MAX_ARGS 256
int cli_split_line(const char *line, char *buf, char **argv, const char **why);
/* One line of a jobs file (len bytes, without its newline; NUL-terminated
   at len): 0 for a blank or # line, else the words of a 'run' or 'op'
   command (argv[argc] = NULL), or -1 with *why (and *column, 1-based, of a
   byte that is not text: NUL, control characters other than tab and CR).
   buf holds len + 1 bytes. */
int cli_jobs_line(const char *line, size_t len, char *buf, char **argv, const char **why, size_t *column);

/* The commands (cli.c's table: name, synopsis, options, entry point). */
struct cli_command {
	const char *name;
	const char *synopsis;       /* after "ttx NAME " */
	const char *summary;        /* what it does, a sentence */
	const struct cli_opt *opts;
	int (*run)(const struct cli_io *io, int argc, char **argv);   /* argv[0] is the command's name */
};
const struct cli_command *cli_find_command(const char *name);
extern const struct cli_opt asm_options[], disasm_options[], run_options[], op_options[], demo_options[],
	batch_options[], grid_options[], tensil_options[];
int cmd_grid(const struct cli_io *io, int argc, char **argv);
int cmd_tensil(const struct cli_io *io, int argc, char **argv);
int cmd_asm(const struct cli_io *io, int argc, char **argv);
int cmd_disasm(const struct cli_io *io, int argc, char **argv);
int cmd_run(const struct cli_io *io, int argc, char **argv);
int cmd_op(const struct cli_io *io, int argc, char **argv);
int cmd_demo(const struct cli_io *io, int argc, char **argv);
int cmd_batch(const struct cli_io *io, int argc, char **argv);

/* Option values: 0, or -1 when malformed. */
int parse_u64(const char *s, uint64_t *v);
int parse_engine(const char *s, enum ttx_engine *out);
int parse_numerics(const char *s, enum ttx_numerics *out);
int parse_fidelity(const char *s, enum ttx_fidelity *out);
int parse_clock(const char *s, double *out);
/* A size in bytes with an optional K, M, G or T suffix (powers of 1024). */
int parse_bytes(const char *s, size_t *out);
/* The default --max-memory: half the machine's physical memory. */
size_t default_max_memory(void);
/* a monotonic clock, in seconds (timings and progress) */
double cli_seconds(void);

/* A program: *.bin (any case) as words for thread, else assembler text
   ("-": from standard input); NULL after a message (cli_asm.c). */
int cli_is_bin(const char *path);
struct ttx_program *cli_load_program(const char *path, unsigned thread, FILE *err);
/* A whole file ("-": standard input) of at most max bytes; NULL after a
   message. */
char *read_file(const char *path, size_t *len, FILE *err, size_t max);
void print_stats(FILE *f, const struct ttx_stats *s);
/* --stats: each core that ran: instructions, cycles, stalls by reason. */
void print_core_stats(FILE *f, const struct ttx_tile *t);
void print_cycles(FILE *f, const struct ttx_cycles *c, double clock_ghz);
/* A grid op's device time, utilisation, NoC and DRAM (ttx op --grid --stats). */
void print_grid_stats(FILE *f, const struct ttx_grid_stats *g, double clock_ghz);
/* The final flush of a stream the command wrote: 0, or -1 after a message. */
int finish_output(FILE *f, const char *what, FILE *err);

/* --perfetto (perfetto.c): a Chrome/Perfetto JSON trace of the cycle
   model's events, written to f (an output, output.h).  perfetto_finish
   writes the end of the trace and frees pf: 0, or -1 if a write failed. */
struct perfetto;
struct perfetto *perfetto_open(FILE *f);
void perfetto_event(void *ctx, const struct ttx_timing_event *e);
void perfetto_core_event(void *ctx, const struct ttx_core_event *e);
int perfetto_finish(struct perfetto *pf, const struct ttx_cycles *c);
/* ttx_options.warn with warn_ctx a FILE * */
void warn_line(void *ctx, const char *message);

#endif
