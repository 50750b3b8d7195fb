/* The libttsim interface's cost (benchmarks/RESULTS.md): a host drives
 * libttsim.so as UMD does (the program and RISCV T0's pusher placed in L1
 * through BAR0, T0 released, the chip clocked in steps until the pusher's
 * done flag in L1), on an SFPU-heavy and a matmul-heavy word stream;
 * against the same words and pusher on one tile through libttx, as `ttx
 * run --elf trisc0=pusher.elf` runs them (with the cycle model, as the
 * chip always has it, and without).  Device cycles per host second, and
 * the effect of the step size.
 *
 *   bench_chip [LIBTTSIM.so [PUSHER.elf]]   (defaults: the build tree's) */
#include <dlfcn.h>
#include <string.h>

#include "bench.h"
#include "libttsim.h"

static struct {
	typeof(&libttsim_init) init;
	typeof(&libttsim_exit) exit;
	typeof(&libttsim_pci_mem_rd_bytes) mem_rd;
	typeof(&libttsim_pci_mem_wr_bytes) mem_wr;
	typeof(&libttsim_clock) clock;
} sim;

#define BAR0 0x100000000ull

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "bench_chip: cannot read %s\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(2);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* (1, 1)'s address space through 1 MiB TLB window 0 */
static void tile_io(uint64_t addr, void *buf, size_t len, int store)
{
	unsigned char *b = buf;
	while (len) {
		size_t n = ((addr | 0xFFFFF) + 1) - addr;
		n = n < len ? n : len;
		uint64_t cfg = (addr >> 20) | 1ull << 16 | 1ull << 22;
		sim.mem_wr(BAR0 + 0x1FC00000u, &cfg, 8);
		if (store)
			sim.mem_wr(BAR0 + (addr & 0xFFFFF), b, (uint32_t)n);
		else
			sim.mem_rd(BAR0 + (addr & 0xFFFFF), b, (uint32_t)n);
		addr += n, b += n, len -= n;
	}
}

static void load_elf_sim(const unsigned char *e)
{
	uint32_t phoff, paddr, off, filesz, memsz;
	memcpy(&phoff, e + 28, 4);
	unsigned phnum = e[44] | e[45] << 8;
	for (unsigned i = 0; i < phnum; i++) {
		const unsigned char *ph = e + phoff + 32 * i;
		uint32_t type;
		memcpy(&type, ph, 4), memcpy(&off, ph + 4, 4), memcpy(&paddr, ph + 12, 4);
		memcpy(&filesz, ph + 16, 4), memcpy(&memsz, ph + 20, 4);
		if (type != 1 || !memsz)
			continue;
		unsigned char *seg = calloc(1, memsz);
		memcpy(seg, e + off, filesz);
		tile_io(paddr, seg, memsz, 1);
		free(seg);
	}
}

/* Through the interface: seconds, and the device cycles clocked. */
static double via_sim(const uint32_t *words, uint32_t n, const unsigned char *elf, uint32_t step, uint64_t *cycles)
{
	sim.init();
	tile_io(0x20000, &n, 4, 1);
	tile_io(0x20004, (void *)words, n * 4u, 1);
	load_elf_sim(elf);
	double t0 = now();
	uint32_t rst = 0x47800 & ~(1u << 12), flag = 0;
	tile_io(0xFFB121B0u, &rst, 4, 1);
	*cycles = 0;
	while (flag != 0x600D) {
		sim.clock(step);
		*cycles += step;
		tile_io(0x1FFF8, &flag, 4, 0);
	}
	double dt = now() - t0;
	sim.exit();
	return dt;
}

/* Through libttx, one tile, as ttx run --elf does: seconds, device cycles. */
static double via_ttx(const uint32_t *words, uint32_t n, const unsigned char *elf, size_t elf_len, int timing,
                      uint64_t *cycles)
{
	struct ttx_options o = { .engine = TTX_ENGINE_AUTO, .timing = timing };
	struct ttx_tile *t = ttx_tile_new(&o);
	uint32_t entry;
	ttx_l1_write(t, 0x20000, &n, 4);
	ttx_l1_write(t, 0x20004, words, n * 4u);
	if (ttx_elf_load(t, TTX_CORE_T0, elf, elf_len, &entry) != TTX_OK || ttx_core_start(t, TTX_CORE_T0, entry)) {
		fprintf(stderr, "bench_chip: %s\n", ttx_tile_error(t));
		exit(1);
	}
	double t0 = now();
	if (ttx_run(t, 0) != TTX_OK) {
		fprintf(stderr, "bench_chip: %s\n", ttx_tile_error(t));
		exit(1);
	}
	double dt = now() - t0;
	struct ttx_cycles c;
	ttx_cycles_get(t, &c);
	*cycles = c.device_cycles;
	ttx_tile_destroy(t);
	return dt;
}

static double best5(double (*f)(void *), void *arg)
{
	double best = 1e30;
	for (int i = 0; i < 5; i++) {
		double t = f(arg);
		best = t < best ? t : best;
	}
	return best;
}

struct job {
	const uint32_t *words;
	uint32_t n, step;
	const unsigned char *elf;
	size_t elf_len;
	int timing;
	uint64_t cycles;
};
static double job_sim(void *a)
{
	struct job *j = a;
	return via_sim(j->words, j->n, j->elf, j->step, &j->cycles);
}
static double job_ttx(void *a)
{
	struct job *j = a;
	return via_ttx(j->words, j->n, j->elf, j->elf_len, j->timing, &j->cycles);
}

int main(int argc, char **argv)
{
	const char *lib = argc > 1 ? argv[1] : ".libs/libttsim.so";
	const char *pusher = argc > 2 ? argv[2] : "tests/riscv/pusher.trisc0.elf";
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "bench_chip: %s\n", dlerror());
		return 2;
	}
	*(void **)&sim.init = dlsym(h, "libttsim_init");
	*(void **)&sim.exit = dlsym(h, "libttsim_exit");
	*(void **)&sim.mem_rd = dlsym(h, "libttsim_pci_mem_rd_bytes");
	*(void **)&sim.mem_wr = dlsym(h, "libttsim_pci_mem_wr_bytes");
	*(void **)&sim.clock = dlsym(h, "libttsim_clock");
	size_t elf_len;
	unsigned char *elf = slurp(pusher, &elf_len);
	/* the word streams: SFPU arithmetic; MVMULs on banks handed to the Matrix Unit */
	enum { N = 240000 };
	static uint32_t sfpu[N], mm[N / 2];
	uint32_t mad = enc("SFPMAD 1, 2, 3, 4, 0"), nop = enc("SFPNOP"), iadd = enc("SFPIADD 1, 5, 5, 5"),
	         shft = enc("SFPSHFT 1, 0, 6, 1");
	for (uint32_t i = 0; i < N; i += 4)
		sfpu[i] = mad, sfpu[i + 1] = nop, sfpu[i + 2] = iadd, sfpu[i + 3] = shft;
	mm[0] = enc("SETDVALID 3");
	for (uint32_t i = 1; i < N / 2; i++)
		mm[i] = enc("MVMUL 0, 0, 0, 0");
	struct { const char *name; const uint32_t *w; uint32_t n; } progs[] = {
		{ "SFPU-heavy", sfpu, N }, { "matmul-heavy", mm, N / 2 },
	};
	printf("libttsim interface against libttx on one tile (best of 5); device cycles per host second\n\n");
	for (int p = 0; p < 2; p++) {
		struct job j = { progs[p].w, progs[p].n, 1000, elf, elf_len, 1, 0 };
		double tt = best5(job_ttx, &j);
		uint64_t dev = j.cycles;
		j.timing = 0;
		double plain = best5(job_ttx, &j);
		printf("%s, %u words, %llu device cycles\n", progs[p].name, progs[p].n, (unsigned long long)dev);
		printf("  libttx, cycle model on  %8.4f s  %7.2f M cycles/s\n", tt, (double)dev / tt * 1e-6);
		printf("  libttx, cycle model off %8.4f s\n", plain);
		static const uint32_t steps[] = { 100, 1000, 10000 };
		for (int s = 0; s < 3; s++) {
			j.step = steps[s];
			double ts = best5(job_sim, &j);
			printf("  libttsim, steps of %5u %8.4f s  %7.2f M cycles/s  %.2fx the cycle-model run\n", steps[s], ts,
			       (double)j.cycles / ts * 1e-6, ts / tt);
		}
	}
	free(elf);
	return 0;
}
