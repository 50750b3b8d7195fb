/* L1 / register data formats: the one table of their definitions (code,
 * width, exponent, mantissa, shared-exponent blocks), used by the unpackers
 * (interp/unpack.c), the packers (interp/pack.c), the Matrix Unit and the
 * host-side conversions of src/formats.c (public API in ttx.h).  The codes
 * are those of TC/Unpackers/FormatConversion.md; docs/formats.md describes
 * every format and layout. */
#ifndef TTX_FORMATS_H
#define TTX_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

#include "ttx.h"

/* The 4-bit format codes of ALU_FORMAT_SPEC_REG*, the unpacker and packer
   format fields (TC/Unpackers/FormatConversion.md). */
enum {
	TTX_FMT_FP32 = 0, TTX_FMT_FP16 = 1, TTX_FMT_BFP8A = 2, TTX_FMT_BFP4A = 3,
	TTX_FMT_TF32 = 4, TTX_FMT_BF16 = 5, TTX_FMT_BFP8 = 6, TTX_FMT_BFP4 = 7,
	TTX_FMT_INT32 = 8, TTX_FMT_INT16 = 9, TTX_FMT_FP8 = 10, TTX_FMT_BFP2A = 11,
	TTX_FMT_INT8 = 14, TTX_FMT_BFP2 = 15
};

struct ttx_format_info {
	const char *name;      /* ttx's name (docs/formats.md), NULL for unused codes */
	uint8_t code;          /* the 4-bit hardware code (UINT8: INT8's) */
	uint8_t bits;          /* bits per datum in L1 */
	uint8_t exp_bits;      /* 8 or 5; 0 for the integer formats */
	uint8_t man_bits;      /* mantissa bits (BFP: magnitude bits; integers: magnitude) */
	uint8_t bfp;           /* one shared exponent byte per 16 datums */
	uint8_t is_int;        /* INT8, UINT8, INT16, INT32 (sign-magnitude except UINT8) */
	uint8_t is_unsigned;   /* UINT8 */
	int bias;              /* exponent bias: 127 or 15 */
};

/* The entry for a ttx_format (0-16); NULL for codes 12 and 13. */
const struct ttx_format_info *ttx_format_info(unsigned format);

static inline bool ttx_fmt_is_bfp(unsigned code)
{
	code &= 15;
	return code == TTX_FMT_BFP8 || code == TTX_FMT_BFP8A || code == TTX_FMT_BFP4 || code == TTX_FMT_BFP4A ||
	       code == TTX_FMT_BFP2 || code == TTX_FMT_BFP2A;
}

/* Bits per datum in L1 of a 4-bit code (TC/UNPACR_Regular.md DatumSizeBytes);
   0 for the unused codes 12 and 13. */
unsigned ttx_fmt_datum_bits(unsigned code);

#endif
