/* Shared parts of the ttx command line (cli.c, cli_op.c, cli_demo.c). */
#ifndef TTX_CLI_H
#define TTX_CLI_H

#include "ttx.h"

enum { EXIT_FAULT = 1, EXIT_USAGE = 2 };

/* "ttx: <fmt with arg>" and a pointer to --help on stderr; EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);
/* --engine and --numerics values; 0, or -1 if unknown. */
int parse_engine(const char *s, enum ttx_engine *out);
int parse_numerics(const char *s, enum ttx_numerics *out);
/* --fidelity lofi|hifi2|hifi3|hifi4; 0, or -1 if unknown. */
int parse_fidelity(const char *s, enum ttx_fidelity *out);
void print_stats(const struct ttx_stats *s);
void warn_line(void *ctx, const char *message);

int cmd_op(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif
