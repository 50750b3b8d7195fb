# Names for the kernel library's symbols (included by every kernel).

# L1 / register format codes (TC/Unpackers/FormatConversion.md)
.equ FMT_FP32, 0
.equ FMT_FP16, 1
.equ FMT_BFP8A, 2
.equ FMT_BFP4A, 3
.equ FMT_TF32, 4
.equ FMT_BF16, 5
.equ FMT_BFP8, 6
.equ FMT_BFP4, 7
.equ FMT_INT32, 8
.equ FMT_INT16, 9
.equ FMT_FP8, 10
.equ FMT_BFP2A, 11
.equ FMT_INT8, 14
.equ FMT_BFP2, 15

# SFPLOAD / SFPSTORE formats (TC/SFPLOAD.md Mod0)
.equ LOAD_FP16, 1
.equ LOAD_BF16, 2
.equ LOAD_FP32, 3

# STALLWAIT block bits (B) and conditions (C) (TC/STALLWAIT.md)
.equ B_SYNC, 0x002
.equ B_PACK, 0x004
.equ B_UNPACK, 0x008
.equ B_MATH, 0x040
.equ B_CFG, 0x080
.equ B_SFPU, 0x100
.equ C_UNPACK0, 0x0002
.equ C_UNPACK1, 0x0004
.equ C_PACK0, 0x0008
.equ C_MATH, 0x0080
.equ C_SRCA_FREE, 0x0100
.equ C_SRCB_FREE, 0x0200
.equ C_SFPU, 0x4000

# SFPU functions of kernels/sfpu_fn.s (app/ops.c numbers them the same)
.equ FN_COPY, 0
.equ FN_EXP, 1
.equ FN_LOG, 2
.equ FN_RECIP, 3
.equ FN_SQRT, 4
.equ FN_RSQRT, 5
.equ FN_SIGMOID, 6
.equ FN_TANH, 7
.equ FN_GELU, 8
.equ FN_GELU_TANH, 9
.equ FN_SILU, 10
.equ FN_RELU, 11
.equ FN_LEAKY_RELU, 12
.equ FN_ABS, 13
.equ FN_SQUARE, 14
.equ FN_POWER, 15
.equ FN_NEG, 16
