/* The libttsim interface (docs/chip.md): what libttsim.so exports, as a
 * host calls it through dlopen/dlsym.  ttx's implementation is
 * chip/libttsim.c; the names and argument lists are the interface's. */
#ifndef TTX_LIBTTSIM_H
#define TTX_LIBTTSIM_H

#include <stdint.h>

void libttsim_init(void);
void libttsim_exit(void);
void libttsim_set_pci_dma_mem_callbacks(void (*pci_dma_mem_rd_bytes)(uint64_t paddr, void *p, uint32_t size),
                                        void (*pci_dma_mem_wr_bytes)(uint64_t paddr, const void *p, uint32_t size));
uint32_t libttsim_pci_config_rd32(uint32_t bus_device_function, uint32_t offset);
void libttsim_pci_config_wr32(uint32_t bus_device_function, uint32_t offset, uint32_t data);
void libttsim_pci_mem_rd_bytes(uint64_t paddr, void *p, uint32_t size);
void libttsim_pci_mem_wr_bytes(uint64_t paddr, const void *p, uint32_t size);
void libttsim_tile_rd_bytes(uint32_t x, uint32_t y, uint64_t addr, void *p, uint32_t size);
void libttsim_tile_wr_bytes(uint32_t x, uint32_t y, uint64_t addr, const void *p, uint32_t size);
void libttsim_clock(uint32_t n_clocks);

#endif
