# Thread 0's set-up for the input stream of the SFPU kernels (in_unpack.s):
# unpacker 0 takes whole tiles of IN_FMT to SrcA (16-bit formats) or, with
# TO_DST (FP32), straight to Dst32 rows 0-63 (the input slot).
.if !TO_DST
SETC16 3, 4                                    # SRCA_SET_SetOvrdWithAddr (not to Dst: it masks the row)
.endif
.set U, 0
.set U_FMT, IN_FMT
.set U_OUT, IN_FMT
.set U_TO_DST, TO_DST
.include "unpack_setup.s"
SETADCXX 1, 1023, 0                            # datums 0-1023
