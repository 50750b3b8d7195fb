/* Where a tile of a grid is (ttx grid writes it into every tile's L1
 * before the programs start; docs/chip.md "Programming model"): shared by
 * the host (app/cli_grid.c) and kernels (ttx_noc.h). */
#ifndef TTX_TILE_INFO_H
#define TTX_TILE_INFO_H

#include <stdint.h>

#define TTX_TILE_INFO_ADDR  0x17000u      /* in every grid tile's L1 */
#define TTX_TILE_INFO_MAGIC 0x54494C45u   /* "TILE" */

struct ttx_tile_info {
	uint32_t magic;
	uint32_t rows, cols;      /* the grid */
	uint32_t row, col;        /* this tile's place in it */
	uint8_t x[8], y[8];       /* NoC #0 coordinates of the grid's columns and rows */
};

#endif
