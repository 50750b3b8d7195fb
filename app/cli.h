/* Shared parts of the ttx command line (cli.c, cli_op.c, cli_demo.c). */
#ifndef TTX_CLI_H
#define TTX_CLI_H

#include <stdio.h>

#include "ttx.h"

enum { EXIT_FAULT = 1, EXIT_USAGE = 2 };

/* Where a command writes: stderr and stdout for the ttx command, buffers
   of its own for each job of ttx batch (which runs commands in threads:
   they keep no state outside their call). */
struct cli_io {
	FILE *err, *out;
	struct ttx_jit_cache *jit_cache;   /* ttx batch: one code cache for all its jobs (or NULL) */
};

/* "ttx: <fmt with arg>" and a pointer to --help on err; EXIT_USAGE. */
int usage_error(FILE *err, const char *fmt, const char *arg);

/* Long options without getopt's global state: "--name value",
   "--name=value", flags, unique abbreviations; other arguments are
   positional wherever they stand, and "--" ends the options.  cli_next
   returns an option's code (its value in scan.arg), CLI_POSITIONAL
   (scan.arg), CLI_BAD (scan.arg: the argument) or CLI_END. */
struct cli_opt {
	const char *name;
	int has_arg;
	int code;
};
struct cli_scan {
	int argc;
	char **argv;
	int i;          /* the next argument: 1 to skip the command's name */
	int no_more;    /* after "--" */
	const char *arg;
};
enum { CLI_END = 0, CLI_POSITIONAL = -1, CLI_BAD = -2 };
int cli_next(struct cli_scan *scan, const struct cli_opt *opts);

/* Split a jobs line into at most CLI_MAX_ARGS words as a shell would
   (cli_args.c); buf holds them (strlen(line) + 1 bytes).  Returns the
   count, or -1 with *why. */
#define CLI_MAX_ARGS 256
int cli_split_line(const char *line, char *buf, char **argv, const char **why);
/* --engine and --numerics values; 0, or -1 if unknown. */
int parse_engine(const char *s, enum ttx_engine *out);
int parse_numerics(const char *s, enum ttx_numerics *out);
/* --fidelity lofi|hifi2|hifi3|hifi4; 0, or -1 if unknown. */
int parse_fidelity(const char *s, enum ttx_fidelity *out);
void print_stats(FILE *f, const struct ttx_stats *s);
void print_cycles(FILE *f, const struct ttx_cycles *c, double clock_ghz);
int parse_clock(const char *s, double *out);
/* --perfetto (perfetto.c): a Chrome/Perfetto JSON trace written from
   the cycle model's events; path "-" = out.  perfetto_close finishes the
   file and returns 0, or -1 after a write error (reported on err). */
struct perfetto;
struct perfetto *perfetto_open(const char *path, FILE *out, FILE *err);
void perfetto_event(void *ctx, const struct ttx_timing_event *e);
int perfetto_close(struct perfetto *pf, const struct ttx_cycles *c);
/* ttx_options.warn with warn_ctx a FILE * */
void warn_line(void *ctx, const char *message);

int cmd_run(const struct cli_io *io, int argc, char **argv);
int cmd_op(const struct cli_io *io, int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_batch(int argc, char **argv);

#endif
