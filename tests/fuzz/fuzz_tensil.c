/* libFuzzer target: the Tensil TCU's readers (tensil/): the first byte
   picks one, the rest is its input.
     0: a .tarch's JSON: an architecture or a message naming the file;
     1: assembler text for a 4-lane FP16BP8 architecture: a program or a
        message naming file:line; a program disassembles and reassembles
        to the same bytes, and runs (at most 200 instructions) to OK, a
        fault or a limit, each with a message;
     2: .tprog bytes for a 2-lane architecture with two registers: decoded
        and run, or refused naming the instruction; the disassembly of any
        whole number of instructions that all decode reassembles to the
        same bytes.
   ASan/UBSan catch the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const archs[2] = {
	"{\"data_type\": \"FP16BP8\", \"array_size\": 4, \"dram0_depth\": 64, \"dram1_depth\": 64, \"local_depth\": 64, "
	"\"accumulator_depth\": 32, \"simd_registers_depth\": 1, \"stride0_depth\": 4, \"stride1_depth\": 4, "
	"\"number_of_threads\": 1, \"thread_queue_depth\": 8}",
	"{\"data_type\": \"FP8BP4\", \"array_size\": 2, \"dram0_depth\": 100, \"dram1_depth\": 30, \"local_depth\": 50, "
	"\"accumulator_depth\": 20, \"simd_registers_depth\": 2, \"stride0_depth\": 8, \"stride1_depth\": 2, "
	"\"number_of_threads\": 2, \"thread_queue_depth\": 8}",
};

static void must_say(const char *err, const char *prefix)
{
	if (!err[0] || strncmp(err, prefix, strlen(prefix)) != 0) {
		fprintf(stderr, "a refusal without its place: '%s'\n", err);
		abort();
	}
}

static void round_trip(const struct ttx_tcu_arch *a, const void *prog, size_t n)
{
	char *text = NULL, err[512];
	void *again = NULL;
	size_t m = 0;
	if (ttx_tcu_disassemble(a, prog, n, "f", &text, err, sizeof(err)) != TTX_OK) {
		must_say(err, "f");	/* bytes no instruction encodes to */
		return;
	}
	if (ttx_tcu_assemble(a, text, strlen(text), "f", &again, &m, err, sizeof(err)) != TTX_OK || m != n ||
	    memcmp(again, prog, n) != 0) {
		fprintf(stderr, "disassembly does not reassemble to the same bytes: %s\n%s\n", err, text ? text : "");
		abort();
	}
	free(text), free(again);
}

static void run(const struct ttx_tcu_arch *a, const void *prog, size_t n)
{
	struct ttx_tcu *t;
	char err[256];
	if (ttx_tcu_create(a, TTX_ENGINE_INTERP, &t, err, sizeof(err)) != TTX_OK)
		abort();
	enum ttx_status st = ttx_tcu_run(t, prog, n, "f.tprog", 200);
	if (st != TTX_OK)
		must_say(ttx_tcu_error(t), "f.tprog");
	ttx_tcu_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned mode = data[0] % 3;
	const char *in = (const char *)data + 1;
	size_t len = size - 1;
	struct ttx_tcu_arch a;
	char err[512];
	if (mode == 0) {
		if (ttx_tcu_arch_parse(in, len, "f.tarch", &a, err, sizeof(err)) != TTX_OK)
			must_say(err, "f.tarch");
		else if (ttx_tcu_instruction_bytes(&a) == 0)
			abort();
		return 0;
	}
	if (ttx_tcu_arch_parse(archs[mode - 1], strlen(archs[mode - 1]), "a", &a, err, sizeof(err)) != TTX_OK)
		abort();
	if (mode == 1) {
		void *prog;
		size_t n;
		if (ttx_tcu_assemble(&a, in, len, "f.tasm", &prog, &n, err, sizeof(err)) != TTX_OK) {
			must_say(err, "f.tasm:");
			return 0;
		}
		round_trip(&a, prog, n);
		run(&a, prog, n);
		free(prog);
		return 0;
	}
	size_t whole = len / ttx_tcu_instruction_bytes(&a) * ttx_tcu_instruction_bytes(&a);
	round_trip(&a, in, whole);
	run(&a, in, len);
	return 0;
}
