/* The command line's argument handling, apart from the commands (and
 * from main) so that the fuzz targets can link it: the long-option
 * scanner the commands use and the shell-like splitting of a jobs line. */
#include <string.h>

#include "cli.h"

int cli_next(struct cli_scan *s, const struct cli_opt *opts)
{
	while (s->i < s->argc) {
		char *a = s->argv[s->i++];
		if (s->no_more || a[0] != '-' || a[1] == '\0') {
			s->arg = a;
			return CLI_POSITIONAL;
		}
		if (strcmp(a, "--") == 0) {
			s->no_more = 1;
			continue;
		}
		s->arg = a;
		s->why = "unknown option";
		if (a[1] != '-') {   /* -x: a one-letter option, its value the next argument */
			const struct cli_opt *o = opts;
			while (o->name && strcmp(o->name, a + 1) != 0)
				o++;
			if (!o->name || strlen(o->name) != 1)
				return CLI_BAD;
			if (o->value) {
				if (s->i == s->argc) {
					s->why = "this option needs a value";
					return CLI_BAD;
				}
				s->arg = s->argv[s->i++];
			}
			return o->code;
		}
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		/* the option named exactly, else the only one it abbreviates */
		const struct cli_opt *hit = NULL;
		int prefixes = 0;
		for (const struct cli_opt *o = opts; o->name && !(hit && strlen(hit->name) == len); o++)
			if (strncmp(o->name, name, len) == 0) {
				if (strlen(o->name) == len)
					hit = o;
				else if (!prefixes++)
					hit = hit ? hit : o;
			}
		if (!hit)
			return CLI_BAD;
		if (strlen(hit->name) != len && prefixes > 1) {
			s->why = "ambiguous option (it abbreviates several)";
			return CLI_BAD;
		}
		if (!hit->value) {
			s->why = "this option takes no value";
			return eq ? CLI_BAD : hit->code;
		}
		if (eq)
			s->arg = eq + 1;
		else if (s->i < s->argc)
			s->arg = s->argv[s->i++];
		else {
			s->why = "this option needs a value";
			return CLI_BAD;
		}
		return hit->code;
	}
	return CLI_END;
}

int cli_bad_option(FILE *err, const char *cmd, const struct cli_scan *scan)
{
	fprintf(err, "ttx: %s: %s: '%s'\nTry 'ttx --help'.\n", cmd, scan->why ? scan->why : "bad argument",
	        scan->arg ? scan->arg : "");
	return EXIT_USAGE;
}

int cli_outputs(int argc, char **argv, const struct cli_opt *opts, const char **files, int max)
{
	struct cli_scan scan = { argc, argv, 1, 0, NULL, NULL };
	int n = 0, c;
	while ((c = cli_next(&scan, opts)) != CLI_END) {
		if (c == CLI_BAD)
			return -1;
		const struct cli_opt *o = opts;
		while (o->name && !(o->code == c && c > 0))
			o++;
		if (!o->name || !(o->flags & (CLI_WRITES | CLI_WRITES_L1)))
			continue;
		const char *f = scan.arg;
		if (o->flags & CLI_WRITES_L1) {   /* ADDR:LEN:FILE */
			const char *c1 = strchr(f, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			if (!c2)
				continue;   /* malformed: refused when the command runs */
			f = c2 + 1;
		}
		if (n < max)
			files[n++] = f;
	}
	return n;
}

/* Split a line into words as a shell would: blanks separate, '...' keeps
   everything, "..." keeps everything but \" \\ \$ \` (backslash escapes),
   a backslash outside quotes takes the next character.  Returns the count,
   or -1 with *why. */
int cli_split_line(const char *line, char *buf, char **argv, const char **why)
{
	int argc = 0;
	const char *p = line;
	char *o = buf;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '\n')
			return argc;
		if (argc == CLI_MAX_ARGS) {
			*why = "more than 256 arguments";
			return -1;
		}
		argv[argc++] = o;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
			if (*p == '\'') {
				for (p++; *p && *p != '\''; p++)
					*o++ = *p;
				if (!*p) {
					*why = "unterminated ' quote";
					return -1;
				}
				p++;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`'))
						p++;
					*o++ = *p;
				}
				if (!*p) {
					*why = "unterminated \" quote";
					return -1;
				}
				p++;
			} else if (*p == '\\') {
				if (!p[1] || p[1] == '\n') {
					*why = "a backslash at the end of the line (jobs are one line each)";
					return -1;
				}
				*o++ = p[1];
				p += 2;
			} else {
				*o++ = *p++;
			}
		}
		*o++ = '\0';
	}
}

int cli_jobs_line(const char *line, size_t len, char *buf, char **argv, const char **why, size_t *column)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)line[i];
		if ((ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7F) {
			*why = "binary data";
			*column = i + 1;
			return -1;
		}
	}
	*column = 0;
	const char *s = line;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (!*s || *s == '#')
		return 0;
	int argc = cli_split_line(s, buf, argv, why);
	if (argc < 0)
		return -1;
	if (argc == 0 || (strcmp(argv[0], "run") != 0 && strcmp(argv[0], "op") != 0)) {
		*why = "expected a 'run' or 'op' command";
		return -1;
	}
	argv[argc] = NULL;
	return argc;
}
