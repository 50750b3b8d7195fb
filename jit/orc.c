/* ORC LLJIT through the LLVM C API: one JIT per tile (no globals but LLVM's
 * own one-time target initialisation), modules optimised for the host CPU
 * and its vector width, then compiled and looked up by name. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>

#include "tile.h"
#include "jit.h"
#include "orc.h"
LLVMValueRef ttx_emit_block(LLVMContextRef ctx, LLVMModuleRef mod, const char *name,
                            const struct ttx_block_desc *d);

/* Code generation at LLVMCodeGenLevelNone: half the compile time of
   LLVMCodeGenLevelLess and, for straight-line vector code, no slower.  It
   is also correct: the optimising x86 code generator of LLVM 14 and of
   LLVM 19.1 miscompiles a merge-masked VPTERNLOGD whose operand it folds
   from memory (wrong truth table after commuting), which the differential
   fuzzer found; the reproducer is in docs/jit.md. */
/* The optimisation pipeline (ttx_orc_compile).  LLVM 18 made one
   instcombine iteration the default and, in a pipeline given as text,
   aborts when that does not reach a fixpoint unless told not to check. */
#if LLVM_VERSION_MAJOR >= 18
#define INSTCOMBINE "instcombine<no-verify-fixpoint>"
#else
#define INSTCOMBINE "instcombine"
#endif
#define PIPELINE "function(mem2reg,early-cse," INSTCOMBINE ",simplifycfg,gvn,dse,simplifycfg)"

struct ttx_orc {
	LLVMOrcLLJITRef jit;
	LLVMTargetMachineRef tm;     /* for the optimisation pipeline */
	LLVMOrcThreadSafeContextRef tsc;   /* one LLVM context for all blocks */
	LLVMPassBuilderOptionsRef pass_options;
	char *triple;
	unsigned nfunctions;
};

static void take_error(LLVMErrorRef err, const char *what, char *msg, size_t len)
{
	char *m = LLVMGetErrorMessage(err);
	snprintf(msg, len, "%s: %s", what, m);
	LLVMDisposeErrorMessage(m);
}

void ttx_orc_free(struct ttx_orc *o)
{
	if (!o)
		return;
	if (o->jit)
		LLVMOrcDisposeLLJIT(o->jit);
	if (o->pass_options)
		LLVMDisposePassBuilderOptions(o->pass_options);
	if (o->tsc)
		LLVMOrcDisposeThreadSafeContext(o->tsc);
	if (o->tm)
		LLVMDisposeTargetMachine(o->tm);
	LLVMDisposeMessage(o->triple);
	free(o);
}

/* LLVM's target registry is process-wide: initialise it once, whichever
   thread (tile) gets here first. */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_failed;

static void init_llvm(void)
{
	init_failed = LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter();
}

struct ttx_orc *ttx_orc_new(char *err, size_t errlen)
{
	pthread_once(&init_once, init_llvm);
	if (init_failed) {
		snprintf(err, errlen, "LLVM has no code generator for this host");
		return NULL;
	}
	struct ttx_orc *o = calloc(1, sizeof(*o));
	if (!o) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	o->triple = LLVMGetDefaultTargetTriple();
	LLVMTargetRef target;
	char *msg = NULL;
	if (LLVMGetTargetFromTriple(o->triple, &target, &msg)) {
		snprintf(err, errlen, "LLVM target %s: %s", o->triple, msg);
		LLVMDisposeMessage(msg);
		ttx_orc_free(o);
		return NULL;
	}
	/* The host's CPU and features (AVX-512, AVX2 or NEON): one machine for
	   the optimiser, one handed to LLJIT for code generation.
	   TTX_JIT_CPU (and TTX_JIT_FEATURES) name another CPU of the host's
	   architecture, e.g. x86-64-v3 for an AVX2 machine's code on an
	   AVX-512 one (docs/portability.md). */
	LLVMTargetMachineRef tm[2];
	const char *cpu_env = getenv("TTX_JIT_CPU"), *features_env = getenv("TTX_JIT_FEATURES");
	for (int i = 0; i < 2; i++) {
		char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
		tm[i] = LLVMCreateTargetMachine(target, o->triple, cpu_env ? cpu_env : cpu,
		                                cpu_env ? (features_env ? features_env : "") : features,
		                                LLVMCodeGenLevelNone, LLVMRelocDefault, LLVMCodeModelJITDefault);
		LLVMDisposeMessage(cpu);
		LLVMDisposeMessage(features);
	}
	o->tm = tm[0];
	LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm[1]));
	LLVMErrorRef e = LLVMOrcCreateLLJIT(&o->jit, builder);
	if (e) {
		take_error(e, "creating the LLVM JIT", err, errlen);
		o->jit = NULL;
		ttx_orc_free(o);
		return NULL;
	}
	/* the C library's memcpy, memmove and memset, which code generation
	   may call, from the process */
	LLVMOrcDefinitionGeneratorRef gen;
	e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(o->jit), NULL, NULL);
	if (e) {
		take_error(e, "the JIT's process symbols", err, errlen);
		ttx_orc_free(o);
		return NULL;
	}
	LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(o->jit), gen);
	o->tsc = LLVMOrcCreateNewThreadSafeContext();
	o->pass_options = LLVMCreatePassBuilderOptions();
	/* LLVM sets up parts of its code generator lazily, at their first use:
	   compile a small block of typical instructions now, so that one-time
	   cost (~15 ms) is part of starting the JIT, not of the first block. */
	static const char *const warm_up[] = {
		"SFPMAD 0, 1, 2, 3, 0", "SFPIADD 0, 1, 2, 4", "SFPXOR 0, 1, 2, 0", "SFPSHFT 3, 0, 2, 1",
		"SFPSETCC 0, 1, 0, 4", "SFPENCC 0, 0, 0, 10", "SFPLOAD 0, 3, 0, 0",
	};
	uint32_t words[sizeof(warm_up) / sizeof(warm_up[0])];
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (ttx_asm_line(warm_up[i], &words[i], err, errlen) != TTX_OK)
			abort();   /* the table no longer has these: a ttx bug */
	struct ttx_block_desc d = { .words = words, .nwords = sizeof(words) / sizeof(words[0]) };
	if (!ttx_orc_compile(o, &d, err, errlen)) {
		ttx_orc_free(o);
		return NULL;
	}
	return o;
}

/* The machine code of a module, as assembler text on stderr: a copy is
   compiled (code generation changes the module it runs on) by the same
   target machine as the JIT's. */
static void dump_asm(struct ttx_orc *o, LLVMModuleRef mod)
{
	LLVMModuleRef copy = LLVMCloneModule(mod);
	LLVMMemoryBufferRef buf = NULL;
	char *msg = NULL;
	if (LLVMTargetMachineEmitToMemoryBuffer(o->tm, copy, LLVMAssemblyFile, &msg, &buf) == 0) {
		fwrite(LLVMGetBufferStart(buf), 1, LLVMGetBufferSize(buf), stderr);
		LLVMDisposeMemoryBuffer(buf);
	} else {
		fprintf(stderr, "ttx: TTX_JIT_ASM: %s\n", msg ? msg : "no assembly");
	}
	LLVMDisposeMessage(msg);
	LLVMDisposeModule(copy);
}

void *ttx_orc_compile_with(struct ttx_orc *o, ttx_orc_build_fn build, void *arg, char *err, size_t errlen)
{
	char name[32];
	snprintf(name, sizeof(name), "ttx_block_%u", o->nfunctions++);
	LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(o->tsc);
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(name, ctx);
	LLVMSetTarget(mod, o->triple);
	LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(o->tm);
	LLVMSetModuleDataLayout(mod, layout);
	LLVMDisposeTargetData(layout);
	build(arg, ctx, mod, name);

	char *msg = NULL;
	if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
		snprintf(err, errlen, "internal error: invalid IR for a block: %.200s", msg);
		LLVMDisposeMessage(msg);
		LLVMDisposeModule(mod);
		return NULL;
	}
	LLVMDisposeMessage(msg);
	/* mem2reg turns the LReg allocas into SSA values; the rest cleans up
	   the selects and masks the emitters leave.  Heavier pipelines
	   (default<O2>) cost compile time for nothing measurable here.  (The
	   new pass manager's C API: LLVM 17 dropped the legacy one.) */
	LLVMErrorRef e = LLVMRunPasses(mod, PIPELINE, o->tm, o->pass_options);
	if (e) {
		take_error(e, "optimising a block", err, errlen);
		LLVMDisposeModule(mod);
		return NULL;
	}
	if (getenv("TTX_JIT_DUMP"))   /* debugging aid: the optimised IR on stderr */
		LLVMDumpModule(mod);
	if (getenv("TTX_JIT_ASM"))    /* and the host code it becomes (docs/portability.md) */
		dump_asm(o, mod);
	LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, o->tsc);
	e = LLVMOrcLLJITAddLLVMIRModule(o->jit, LLVMOrcLLJITGetMainJITDylib(o->jit), tsm);
	if (e) {
		take_error(e, "adding a block to the JIT", err, errlen);
		LLVMOrcDisposeThreadSafeModule(tsm);
		return NULL;
	}
	LLVMOrcExecutorAddress addr;
	e = LLVMOrcLLJITLookup(o->jit, &addr, name);
	if (e) {
		take_error(e, "compiling a block", err, errlen);
		return NULL;
	}
	return (void *)(uintptr_t)addr;
}

static void build_block(void *arg, LLVMContextRef ctx, LLVMModuleRef mod, const char *name)
{
	ttx_emit_block(ctx, mod, name, arg);
}

ttx_block_fn ttx_orc_compile(struct ttx_orc *o, const struct ttx_block_desc *d, char *err, size_t errlen)
{
	void *p = ttx_orc_compile_with(o, build_block, (void *)d, err, errlen);
	ttx_block_fn fn;
	uintptr_t a = (uintptr_t)p;
	memcpy(&fn, &a, sizeof(fn));
	return p ? fn : NULL;
}
