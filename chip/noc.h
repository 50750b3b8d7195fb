/* The NoC's packets between the chip's endpoints (chip/noc.c, docs/chip.md
 * "NoC"): what an NIU request initiator sends, where it goes and when it
 * lands.  Internal to the chip floor. */
#ifndef TTX_NOC_H
#define TTX_NOC_H

#include <stdatomic.h>
#include <stdint.h>

/* Timing (docs/timing.md "NoC and DRAM"). */
#define NOC_HOP_CYCLES 9         /* router to router: the seed article's measurement (Wormhole part 3) */
#define NOC_FLIT_BYTES 32        /* a flit is 256 bits (Counters.md): a link moves one a cycle */
#define NOC_NIU_CYCLES 16        /* an NIU: from CMD_CTRL to the first flit on the router, and from the
                                    last flit off the router to the data in L1 (assumption) */
#define NOC_QUANTUM 32           /* cycles the tiles run between deliveries: below any packet's latency
                                    (2 NIUs + 2 flits), so a packet always lands in a later quantum */
#define DRAM_LATENCY_CYCLES 300  /* a DRAM read's access time (assumption, GDDR6: docs/timing.md) */
#define DRAM_BYTES_PER_CYCLE 48  /* a channel: 2 x 16 bits x 12 Gbps GDDR6 = 48 GB/s at 1 GHz */

enum noc_msg_type {
	MSG_WRITE,          /* a write request (inline or with data) */
	MSG_READ,           /* a read request */
	MSG_ATOMIC,         /* an atomic request */
	MSG_READ_RESP,      /* read data back to NOC_RET_ADDR */
	MSG_ATOMIC_RESP,    /* an atomic's result back to NOC_RET_ADDR */
	MSG_WRITE_ACK,      /* a non-posted write's acknowledgement */
};

enum noc_msg_flags {
	MSG_RESP_MARKED = 1, MSG_INLINE = 2, MSG_BE = 4, MSG_BRCST = 8, MSG_BRCST_Y = 16, MSG_SRC_INCLUDE = 32,
};

struct noc_payload {
	atomic_int refs;
	uint32_t len;
	uint8_t bytes[];
};

struct noc_msg {
	uint64_t time;            /* outbox: when it leaves its NIU; inbox: when it takes effect */
	uint64_t seq;             /* order among equal times */
	uint8_t type, noc, txn, flags;
	uint8_t src_x, src_y;     /* the NIU that sent it (NoC #0 coordinates) */
	uint8_t dst_x, dst_y;     /* where it goes (multicast: the rectangle's end) */
	uint8_t start_x, start_y; /* multicast: the rectangle's start */
	uint8_t ret_x, ret_y;     /* requests: where the response or acknowledgement goes */
	uint64_t addr, ret_addr;  /* at the destination, at ret */
	uint32_t len, at_len_be, at_data;
	struct noc_payload *data; /* write data, read data */
	uint32_t acks;            /* a non-posted multicast write's slot in noc_state.acks + 1 (0: none) */
};

/* A growable array (outbox) or a binary min-heap on (time, seq) (inbox). */
struct noc_queue {
	struct noc_msg *v;
	size_t n, cap;
};

/* Per-link and per-channel occupancy for the timing model and --stats. */
enum { LINK_INJECT, LINK_X, LINK_Y, LINK_EJECT, LINK_KINDS };

struct noc_state {
	uint64_t busy_until[2][10][12][LINK_KINDS];   /* [noc][x][y][link]: when it is free again */
	uint64_t busy_cycles[2][10][12][LINK_KINDS];  /* flits it carried */
	uint64_t dram_busy_until[6], dram_busy_cycles[6], dram_bytes[6];
	uint64_t seq;
	uint64_t packets, flits;
	struct noc_msg *batch;     /* the routing step's messages */
	size_t batch_cap;
	/* a non-posted multicast write's acknowledgements still to come: the
	   initiator's NIU_MST_REQS_OUTSTANDING_ID counts the request once and
	   goes down with the last of them (docs/chip.md) */
	uint32_t *acks;
	size_t nacks;
};

#endif
