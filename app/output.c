/* The files the ttx command writes (output.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

/* "dir/name" for a name relative to the directory of path. */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	char *r = malloc(dlen + strlen(name) + 1);
	if (r) {
		memcpy(r, path, dlen);
		strcpy(r + dlen, name);
	}
	return r;
}

/* The file path names once its symlinks are followed (a dangling link: the
   file it would create).  NULL with errno set. */
static char *follow_links(const char *path)
{
	char *p = strdup(path);
	for (int depth = 0; p && depth < 40; depth++) {
		struct stat st;
		char link[PATH_MAX];
		if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
			return p;
		ssize_t n = readlink(p, link, sizeof(link) - 1);
		if (n < 0)
			return p;
		link[n] = '\0';
		char *next = link[0] == '/' ? strdup(link) : beside(p, link);
		free(p);
		p = next;
	}
	if (p)
		errno = ELOOP;
	free(p);
	return NULL;
}

/* The process's umask, without changing it (umask() would, and commands
   run in threads under ttx batch). */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned mask = 022;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &mask) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)mask;
}

static int fail(struct output *o, FILE *err, const char *what)
{
	fprintf(err, "ttx: %s: %s\n", o->path, what);
	free(o->target);
	o->target = NULL;
	return -1;
}

int output_open(struct output *o, const char *path, FILE *stdout_stream, FILE *err)
{
	memset(o, 0, sizeof(*o));
	o->path = path;
	if (strcmp(path, "-") == 0) {
		o->f = stdout_stream;
		o->to_stdout = 1;
		return 0;
	}
	o->target = follow_links(path);
	if (!o->target)
		return fail(o, err, strerror(errno));
	struct stat st;
	int exists = stat(o->target, &st) == 0;
	if (!exists && errno != ENOENT)
		return fail(o, err, strerror(errno));
	if (exists && S_ISDIR(st.st_mode))
		return fail(o, err, "is a directory");
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or socket: written as it is, never replaced */
		int fd = open(o->target, O_WRONLY | O_NOCTTY);
		o->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
		if (!o->f) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return fail(o, err, strerror(e));
		}
		return 0;
	}
	if (exists && access(o->target, W_OK) != 0)
		return fail(o, err, strerror(errno));
	o->tmp = beside(o->target, ".ttx-XXXXXX");
	int fd = o->tmp ? mkstemp(o->tmp) : -1;
	if (fd < 0) {
		int e = o->tmp ? errno : ENOMEM;
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, err, strerror(e));
	}
	/* the mode the file keeps, or a new file's (mkstemp's is 0600) */
	fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~current_umask());
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		int e = errno;
		close(fd);
		output_discard(o);
		return fail(o, err, strerror(e));
	}
	return 0;
}

int output_write(struct output *o, const void *data, size_t len)
{
	return fwrite(data, 1, len, o->f) == len ? 0 : -1;
}

int output_commit(struct output *o, FILE *err)
{
	if (!o->f)
		return -1;
	int bad = ferror(o->f) || fflush(o->f) != 0;
	int e = errno ? errno : EIO;
	if (!o->to_stdout && fclose(o->f) != 0 && !bad)
		bad = 1, e = errno;
	o->f = NULL;
	if (!bad && o->tmp && rename(o->tmp, o->target) != 0)
		bad = 1, e = errno;
	if (bad) {
		fprintf(err, "ttx: %s: write error: %s\n", o->path, strerror(e));
		if (o->tmp)
			remove(o->tmp);
	}
	free(o->tmp), free(o->target);
	o->tmp = o->target = NULL;
	return bad ? -1 : 0;
}

void output_discard(struct output *o)
{
	if (o->f && !o->to_stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		remove(o->tmp);
	free(o->tmp), free(o->target);
	o->tmp = o->target = NULL;
}

char *output_identity(const char *path)
{
	if (strcmp(path, "-") == 0)
		return NULL;
	char *target = follow_links(path);
	if (!target)
		return strdup(path);
	struct stat st;
	char buf[PATH_MAX + 64];
	if (stat(target, &st) == 0) {
		free(target);
		if (!S_ISREG(st.st_mode))
			return NULL;
		snprintf(buf, sizeof(buf), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
		return strdup(buf);
	}
	/* not there yet: its directory's real path and its name */
	const char *slash = strrchr(target, '/'), *name = slash ? slash + 1 : target;
	char dir[PATH_MAX], real[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - target) + (slash == target) : 1, slash ? target : ".");
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(buf, sizeof(buf), "%s/%s", real, name);
	free(target);
	return strdup(buf);
}
