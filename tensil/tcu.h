/* The Tensil TCU (docs/tensil.md): architecture, instruction layout,
 * state and the interpreter, internal to the tensil/ floor (which uses
 * src/ and jit/, beside the Tensix floors). */
#ifndef TTX_TCU_H
#define TTX_TCU_H

#include <stdint.h>

#include "ttx.h"

enum tcu_opcode {
#define TCU_OP(name, code, mn, a, b, c, f0, f1, f2, f3) TCU_##name = code,
#include "tcu_isa.def"
#undef TCU_OP
};

enum tcu_operand { TCU_OPND_NONE, TCU_OPND_LOCAL, TCU_OPND_ACC, TCU_OPND_OTHER, TCU_OPND_SIZE, TCU_OPND_RADDR,
                   TCU_OPND_SIMD, TCU_OPND_TID, TCU_OPND_LUT, TCU_OPND_REG, TCU_OPND_VALUE };

/* DataMove kinds (the flags) */
enum tcu_move {
	TCU_DRAM0_TO_LOCAL = 0, TCU_LOCAL_TO_DRAM0 = 1, TCU_DRAM1_TO_LOCAL = 2, TCU_LOCAL_TO_DRAM1 = 3,
	TCU_ACC_TO_LOCAL = 12, TCU_LOCAL_TO_ACC = 13, TCU_LOCAL_TO_ACC_ACC = 15,
};

/* SIMD ALU operations (seed, "SIMD sub-instructions") */
enum tcu_alu {
	TCU_ALU_NOOP, TCU_ALU_ZERO, TCU_ALU_MOVE, TCU_ALU_NOT, TCU_ALU_AND, TCU_ALU_OR, TCU_ALU_INCREMENT,
	TCU_ALU_DECREMENT, TCU_ALU_ADD, TCU_ALU_SUBTRACT, TCU_ALU_MULTIPLY, TCU_ALU_ABS, TCU_ALU_GREATER,
	TCU_ALU_GREATER_EQUAL, TCU_ALU_MIN, TCU_ALU_MAX, TCU_ALU_LOOKUP, TCU_ALU_COUNT
};

/* Configure's registers (docs/tensil.md) */
enum {
	TCU_CFG_DRAM0_OFFSET = 0x0, TCU_CFG_DRAM0_CACHE = 0x1, TCU_CFG_DRAM1_OFFSET = 0x4, TCU_CFG_DRAM1_CACHE = 0x5,
	TCU_CFG_TIMEOUT = 0x8, TCU_CFG_TRACEPOINT = 0x9, TCU_CFG_PROGRAM_COUNTER = 0xA, TCU_CFG_SAMPLE_INTERVAL = 0xB,
	TCU_CFG_COUNT = 16
};

/* The data types (arch.c): fixed point of `width` bits with the binary
   point `point` bits up (FLOAT32: 32 and 0), `bytes` a value in memory
   images. */
struct tcu_dtype {
	const char *name;
	unsigned width, point, bytes;
};
extern const struct tcu_dtype tcu_dtypes[TTX_TCU_FLOAT32 + 1];

/* One value of a memory image (little-endian, `bytes` of them) as the
   type's `width` bits sign-extended, and back. */
static inline int32_t tcu_image_get(const uint8_t *b, unsigned bytes, unsigned width)
{
	uint32_t x = 0;
	for (unsigned k = 0; k < bytes; k++)
		x |= (uint32_t)b[k] << (8 * k);
	return (int32_t)(x << (32 - width)) >> (32 - width);
}

static inline void tcu_image_put(uint8_t *b, unsigned bytes, int32_t v)
{
	for (unsigned k = 0; k < bytes; k++)
		b[k] = (uint8_t)((uint32_t)v >> (8 * k));
}

/* The bit layout of an instruction for an architecture (docs/tensil.md
   "Encoding"): three operands, each a whole number of bytes, from the
   least significant bit, then the header (flags, opcode, thread). */
struct tcu_layout {
	unsigned bytes;                      /* an instruction */
	unsigned op_bits[3];                 /* each operand's field (a multiple of 8) */
	unsigned local_bits, stride0_bits;   /* operand 0: address, stride above it */
	unsigned other_bits, stride1_bits;   /* operand 1 */
	unsigned reg_bits, regs;             /* a SIMD register number; how many there are */
	unsigned tid_bits;
	unsigned header_bits;                /* flags 4, opcode 4, thread */
};

/* One instruction, decoded. */
struct tcu_insn {
	uint8_t opcode, flags, tid;
	uint64_t op[3];                      /* the raw operand fields */
	/* LOCAL / ACC / OTHER operands: address and stride (log2) */
	uint64_t addr[2];
	unsigned stride[2];
	/* SIMD */
	unsigned alu, left, right, dest;
};

struct tcu_program {
	struct tcu_insn *insn;
	size_t n;
};

struct ttx_tcu {
	struct ttx_tcu_arch arch;
	struct tcu_layout lay;
	unsigned width, point;               /* fixed point: total and fraction bits; FLOAT32: 32, 0 */
	int is_float;
	/* memories, array_size lanes a vector; values sign-extended (FLOAT32: their bits) */
	int32_t *local, *acc, *dram0, *dram1;
	int32_t *weights;                    /* (array_size + 1) rows: row 0 the bias */
	int32_t *regs;                       /* simd_registers_depth rows */
	int32_t *lut;                        /* lut_tables rows: table 0 the keys */
	int32_t *scratch;                    /* the weights in rows of whole 16-lane chunks (exec.c) */
	unsigned lut_tables;
	uint64_t config[TCU_CFG_COUNT];
	struct ttx_tcu_stats stats;
	enum ttx_engine engine;
	void *jit;                           /* compiled programs (tcu_jit.c) */
	void (*trace)(void *ctx, size_t index, const char *text);
	void *trace_ctx;
	char error[512];
};

enum ttx_status tcu_fail(struct ttx_tcu *t, enum ttx_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct json;
/* An architecture from a JSON object (arch.c; a .tarch, a .tmodel's "arch"). */
enum ttx_status tcu_arch_from_json(const struct json *obj, const char *file, struct ttx_tcu_arch *out, char *err,
                                   size_t errlen);
/* The layout for an architecture (arch.c). */
void tcu_layout_of(const struct ttx_tcu_arch *a, struct tcu_layout *l);
/* Decode a program: TTX_EINVAL with "name: instruction #i (...): field"
   in err for one that is not a whole number of instructions, an opcode,
   DataMove kind, SIMD operation or register with no meaning (code.c). */
enum ttx_status tcu_decode(const struct ttx_tcu_arch *a, const uint8_t *bytes, size_t len, const char *name,
                           struct tcu_program *out, char *err, size_t errlen);
void tcu_program_free(struct tcu_program *p);
/* One instruction back to bytes. */
void tcu_encode(const struct tcu_layout *l, const struct tcu_insn *i, uint8_t *out);
/* One instruction of program `name` at index, as the interpreter runs it
   (its statistics counted). */
enum ttx_status tcu_execute_one(struct ttx_tcu *t, const struct tcu_insn *in, size_t index, const char *name);
/* Run a decoded program (exec.c); name for messages. */
enum ttx_status tcu_execute(struct ttx_tcu *t, const struct tcu_program *p, const char *name, uint64_t max_insns);
const char *tcu_op_name(unsigned opcode);
/* An instruction as the disassembler writes it (code.c). */
void tcu_insn_text(const struct tcu_insn *in, char *buf, size_t len);
/* The JIT (tcu_jit.c): run p compiled when the engine says so (1, the
   status in *st), else 0; free what it compiled. */
int tcu_jit_run(struct ttx_tcu *t, const uint8_t *prog, size_t len, const struct tcu_program *p, const char *name,
                uint64_t max_insns, enum ttx_status *st);
void tcu_jit_free(struct ttx_tcu *t);
const char *tcu_alu_name(unsigned alu);

#endif
