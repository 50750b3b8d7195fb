/* The NoC between the chip's endpoints (NoC/README.md, MemoryMap.md,
 * Counters.md, Atomics.md, RoutingPaths.md, Ordering.md; docs/chip.md
 * "NoC").
 *
 * A core writes an NIU request initiator's registers and then NOC_CMD_CTRL
 * (tile_mmio in chip.c hands that write here): the request is accepted at
 * once (CMD_CTRL reads 0 again), its counters move as Counters.md says, a
 * write's data is read from L1 then, and the request goes into the tile's
 * outbox with the core's cycle.  The tiles run in quanta of NOC_QUANTUM
 * device cycles (clock.c); between quanta, on one thread, every outbox's
 * messages are routed in the order (cycle, tile, sequence): each hop of
 * the route (or, for a multicast, of its tree) is a link that moves one
 * flit a cycle, a packet's head waits for its link to be free and takes
 * NOC_HOP_CYCLES to the next router, the tail follows the head by the
 * packet's flits; the result is the cycle the packet takes effect at each
 * destination.  A message to a Tensix tile goes into that tile's inbox,
 * which the tile's own thread works through during the next quanta,
 * stopping the tile's run at each message's cycle: so what a core reads
 * (L1, counters) changes at that cycle whatever the thread count.  Every
 * packet takes longer than a quantum, so nothing a quantum sends lands
 * within it.  Messages to other endpoints (DRAM, the PCI Express tile,
 * ARC, Ethernet L1) are applied at the first boundary after their cycle,
 * in (cycle, sequence) order; DRAM channels add a latency and a bandwidth
 * (docs/timing.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip.h"
#include "riscv.h"

/* NIU registers (MemoryMap.md), as word offsets within an initiator */
enum {
	R_TARG_LO = 0x00 / 4, R_TARG_MID = 0x04 / 4, R_RET_LO = 0x0C / 4, R_RET_MID = 0x10 / 4, R_PACKET_TAG = 0x18 / 4,
	R_CTRL = 0x1C / 4, R_AT_LEN_BE = 0x20 / 4, R_AT_DATA = 0x24 / 4, R_CMD_CTRL = 0x28 / 4,
};
#define NIU_CFG_0 (0x100 / 4)
#define COUNTERS (0x200 / 4)

/* Counters.md's indices */
enum {
	MST_ATOMIC_RESP_RECEIVED, MST_WR_ACK_RECEIVED, MST_RD_RESP_RECEIVED, MST_RD_DATA_WORD_RECEIVED,
	MST_CMD_ACCEPTED, MST_RD_REQ_SENT, MST_NONPOSTED_ATOMIC_SENT, MST_POSTED_ATOMIC_SENT,
	MST_NONPOSTED_WR_DATA_WORD_SENT, MST_POSTED_WR_DATA_WORD_SENT, MST_NONPOSTED_WR_REQ_SENT,
	MST_POSTED_WR_REQ_SENT, MST_NONPOSTED_WR_REQ_STARTED, MST_POSTED_WR_REQ_STARTED, MST_RD_REQ_STARTED,
	MST_NONPOSTED_ATOMIC_STARTED, MST_REQS_OUTSTANDING_ID = 16, MST_WRITE_REQS_OUTGOING_ID = 32,
	SLV_ATOMIC_RESP_SENT = 48, SLV_WR_ACK_SENT, SLV_RD_RESP_SENT, SLV_RD_DATA_WORD_SENT, SLV_REQ_ACCEPTED,
	SLV_RD_REQ_RECEIVED, SLV_NONPOSTED_ATOMIC_RECEIVED, SLV_POSTED_ATOMIC_RECEIVED,
	SLV_NONPOSTED_WR_DATA_WORD_RECEIVED, SLV_POSTED_WR_DATA_WORD_RECEIVED, SLV_NONPOSTED_WR_REQ_RECEIVED,
	SLV_POSTED_WR_REQ_RECEIVED, SLV_NONPOSTED_WR_REQ_STARTED, SLV_POSTED_WR_REQ_STARTED,
};

#define MAX_PACKET 8192u   /* 256 flits (Counters.md "Automatic request splitting") */

static void count(struct chip_tile *ct, unsigned noc, unsigned i, uint32_t delta)
{
	uint32_t *r = &ct->niu[noc][COUNTERS + i];
	*r += delta;
	if (i >= MST_REQS_OUTSTANDING_ID && i < SLV_ATOMIC_RESP_SENT)
		*r &= 0xFF;   /* 8-bit counters */
}

static unsigned flits_of(uint32_t bytes)
{
	return (bytes + NOC_FLIT_BYTES - 1) / NOC_FLIT_BYTES;
}

/* ---- queues ---- */

static int queue_push(struct noc_queue *q, const struct noc_msg *m)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct noc_msg *v = realloc(q->v, cap * sizeof(*v));
		if (!v)
			return 0;
		q->v = v, q->cap = cap;
	}
	q->v[q->n++] = *m;
	return 1;
}

static int before(const struct noc_msg *a, const struct noc_msg *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static int heap_push(struct noc_queue *q, const struct noc_msg *m)
{
	if (!queue_push(q, m))
		return 0;
	for (size_t i = q->n - 1; i > 0;) {
		size_t up = (i - 1) / 2;
		if (!before(&q->v[i], &q->v[up]))
			break;
		struct noc_msg tmp = q->v[i];
		q->v[i] = q->v[up], q->v[up] = tmp;
		i = up;
	}
	return 1;
}

static struct noc_msg heap_pop(struct noc_queue *q)
{
	struct noc_msg top = q->v[0];
	q->v[0] = q->v[--q->n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < q->n && before(&q->v[l], &q->v[m]))
			m = l;
		if (r < q->n && before(&q->v[r], &q->v[m]))
			m = r;
		if (m == i)
			break;
		struct noc_msg tmp = q->v[i];
		q->v[i] = q->v[m], q->v[m] = tmp;
		i = m;
	}
	return top;
}

static void payload_drop(struct noc_payload *p)
{
	if (p && atomic_fetch_sub(&p->refs, 1) == 1)
		free(p);
}

static struct noc_payload *payload_new(uint32_t len)
{
	struct noc_payload *p = malloc(sizeof(*p) + len);
	if (p) {
		atomic_init(&p->refs, 1);
		p->len = len;
	}
	return p;
}

void chip_noc_free(struct ttx_chip *c)
{
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			struct chip_tile *ct = &c->grid[x][y];
			for (size_t i = 0; i < ct->outbox.n; i++)
				payload_drop(ct->outbox.v[i].data);
			for (size_t i = 0; i < ct->inbox.n; i++)
				payload_drop(ct->inbox.v[i].data);
			free(ct->outbox.v), free(ct->inbox.v);
			memset(&ct->outbox, 0, sizeof(ct->outbox)), memset(&ct->inbox, 0, sizeof(ct->inbox));
		}
	for (size_t i = 0; i < c->far.n; i++)
		payload_drop(c->far.v[i].data);
	for (size_t i = 0; i < c->chip_out.n; i++)
		payload_drop(c->chip_out.v[i].data);
	free(c->far.v), free(c->chip_out.v), free(c->noc.batch), free(c->noc.acks);
	memset(&c->far, 0, sizeof(c->far)), memset(&c->chip_out, 0, sizeof(c->chip_out));
	c->noc.batch = NULL, c->noc.batch_cap = 0, c->noc.acks = NULL, c->noc.nacks = 0;
}

int chip_noc_busy(const struct ttx_chip *c)
{
	if (c->far.n || c->chip_out.n)
		return 1;
	for (unsigned i = 0; i < c->nactive; i++)
		if (c->active[i]->inbox.n || c->active[i]->outbox.n)
			return 1;
	return 0;
}

/* ---- coordinates and routes ---- */

/* A coordinate pair of an NIU register (the NoC's own coordinates, or
   translated ones when NIU_CFG_0 bit 14 is set: Coordinates.md) as NoC #0
   coordinates; 0 for no tile there. */
static int resolve(const struct chip_tile *ct, unsigned noc, unsigned *x, unsigned *y)
{
	const uint32_t *r = ct->niu[noc];
	unsigned u = *x, v = *y;
	if (r[NIU_CFG_0] >> 14 & 1) {
		if (u >= 32 || v >= 32)
			return 0;
		u = r[0x118 / 4 + u / 8] >> (4 * (u % 8)) & 15;
		v = r[0x128 / 4 + v / 8] >> (4 * (v % 8)) & 15;
	}
	if (u >= CHIP_X || v >= CHIP_Y)
		return 0;
	*x = noc ? CHIP_X - 1 - u : u, *y = noc ? CHIP_Y - 1 - v : v;
	return 1;
}

/* Own coordinates of a NoC: both NoCs travel towards increasing own
   coordinates (NoC #1's are NoC #0's mirrored: RoutingPaths.md). */
static unsigned own_x(unsigned noc, unsigned x) { return noc ? CHIP_X - 1 - x : x; }
static unsigned own_y(unsigned noc, unsigned y) { return noc ? CHIP_Y - 1 - y : y; }

static int in_span(unsigned start, unsigned end, unsigned v)
{
	return start <= end ? start <= v && v <= end : v <= end || v >= start;
}

static unsigned span_size(unsigned start, unsigned end, unsigned n)
{
	return start <= end ? end - start + 1 : n - start + end + 1;
}

/* A link's next free cycle: the head passes at max(t, free), the packet
   holds the link for its flits (cut-through: NoC/RoutingPaths.md). */
static uint64_t take(struct noc_state *s, unsigned noc, unsigned u, unsigned v, unsigned kind, uint64_t t,
                     unsigned flits)
{
	uint64_t *busy = &s->busy_until[noc][u][v][kind];
	uint64_t start = t > *busy ? t : *busy;
	*busy = start + flits;
	s->busy_cycles[noc][u][v][kind] += flits;
	return start;
}

/* Whether the NIU at NoC #0 (x, y) takes broadcasts (ROUTER_CFG_1 / 3 of
   its own NIU, in its NoC's coordinates: MemoryMap.md). */
static int takes_broadcast(const struct chip_tile *d, unsigned noc)
{
	const uint32_t *r = d->niu[noc];
	unsigned u = own_x(noc, d->x), v = own_y(noc, d->y);
	return !(r[0x108 / 4] >> u & 1) && !(r[0x110 / 4] >> v & 1);
}

/* A destination of a route and the cycle the packet's tail is off the NoC
   there (the data then takes NOC_NIU_CYCLES into memory). */
typedef enum ttx_status (*arrive_fn)(struct ttx_chip *c, void *ctx, const struct noc_msg *m, struct chip_tile *d,
                                     uint64_t when);

/* Route m from its source at m->time; arrive() for each destination.
   With s NULL nothing is reserved (the host's writes, pcie.c). */
static enum ttx_status route(struct ttx_chip *c, struct noc_state *s, const struct noc_msg *m, unsigned flits,
                             arrive_fn arrive, void *ctx)
{
	unsigned noc = m->noc, su = own_x(noc, m->src_x), sv = own_y(noc, m->src_y);
	uint64_t t = m->time + NOC_NIU_CYCLES;
	t = (s ? take(s, noc, su, sv, LINK_INJECT, t, flits) : t) + 1;
#define HOP(kind, u, v) (t = (s ? take(s, noc, (u), (v), (kind), t, flits) : t) + NOC_HOP_CYCLES)
#define EJECT(u, v) ((s ? take(s, noc, (u), (v), LINK_EJECT, t, flits) : t) + flits)
	if (!(m->flags & MSG_BRCST)) {
		unsigned du = own_x(noc, m->dst_x), dv = own_y(noc, m->dst_y), u = su, v = sv;
		if (noc == 0) {   /* X then Y on NoC #0, Y then X on NoC #1 (NOC_NODE_ID bit 28) */
			for (; u != du; u = (u + 1) % CHIP_X)
				HOP(LINK_X, u, v);
			for (; v != dv; v = (v + 1) % CHIP_Y)
				HOP(LINK_Y, u, v);
		} else {
			for (; v != dv; v = (v + 1) % CHIP_Y)
				HOP(LINK_Y, u, v);
			for (; u != du; u = (u + 1) % CHIP_X)
				HOP(LINK_X, u, v);
		}
		return arrive(c, ctx, m, &c->grid[m->dst_x][m->dst_y], EJECT(du, dv));
	}
	/* a broadcast tree (RoutingPaths.md): along the major axis to the
	   rectangle, along the minor axis through it, and from there along the
	   major axis again through each of its lines; a span is entered where
	   the route first meets it and walked (wrapping) until covered */
	int ymajor = (m->flags & MSG_BRCST_Y) != 0;
	unsigned n_major = ymajor ? CHIP_Y : CHIP_X, n_minor = ymajor ? CHIP_X : CHIP_Y;
	unsigned a0 = ymajor ? own_y(noc, m->start_y) : own_x(noc, m->start_x);
	unsigned a1 = ymajor ? own_y(noc, m->dst_y) : own_x(noc, m->dst_x);
	unsigned b0 = ymajor ? own_x(noc, m->start_x) : own_y(noc, m->start_y);
	unsigned b1 = ymajor ? own_x(noc, m->dst_x) : own_y(noc, m->dst_y);
	unsigned sa = ymajor ? sv : su, sb = ymajor ? su : sv;
	unsigned ea = in_span(a0, a1, sa) ? sa : a0;
	unsigned kmaj = ymajor ? LINK_Y : LINK_X, kmin = ymajor ? LINK_X : LINK_Y;
/* (a, b) on the major and minor axes as (u, v) */
#define HOP_AB(kind, a, b) HOP(kind, ymajor ? (b) : (a), ymajor ? (a) : (b))
#define EJECT_AB(a, b) EJECT(ymajor ? (b) : (a), ymajor ? (a) : (b))
	for (unsigned a = sa; a != ea; a = (a + 1) % n_major)
		HOP_AB(kmaj, a, sb);
	unsigned rows = span_size(b0, b1, n_minor), cols = span_size(a0, a1, n_major);
	for (unsigned b = sb, seen = 0;; b = (b + 1) % n_minor) {
		if (in_span(b0, b1, b)) {
			uint64_t trunk = t;
			for (unsigned a = ea, done = 0;; a = (a + 1) % n_major) {
				if (in_span(a0, a1, a)) {
					unsigned x = ymajor ? b : a, y = ymajor ? a : b;
					x = noc ? CHIP_X - 1 - x : x, y = noc ? CHIP_Y - 1 - y : y;
					struct chip_tile *d = &c->grid[x][y];
					int self = x == m->src_x && y == m->src_y;
					if (d->kind == TTX_TILE_TENSIX && takes_broadcast(d, noc) &&
					    (!self || (m->flags & MSG_SRC_INCLUDE))) {
						enum ttx_status st = arrive(c, ctx, m, d, EJECT_AB(a, b));
						if (st != TTX_OK)
							return st;
					}
					if (++done == cols)
						break;
				}
				HOP_AB(kmaj, a, b);
			}
			t = trunk;
			if (++seen == rows)
				break;
		}
		HOP_AB(kmin, ea, b);
	}
#undef HOP_AB
#undef EJECT_AB
#undef HOP
#undef EJECT
	return TTX_OK;
}

/* ---- the host's writes (pcie.c): when they land, nothing reserved ---- */

struct host_arrival {
	unsigned x, y;
	uint64_t when;
};

static enum ttx_status host_arrive(struct ttx_chip *c, void *ctx, const struct noc_msg *m, struct chip_tile *d,
                                   uint64_t when)
{
	struct host_arrival *want = ctx;
	(void)c, (void)m;
	if (d->x == want->x && d->y == want->y)
		want->when = when + NOC_NIU_CYCLES;
	return TTX_OK;
}

uint64_t chip_noc_host_arrival(struct ttx_chip *c, unsigned noc, int multicast, unsigned x0, unsigned y0,
                               unsigned x1, unsigned y1, unsigned x, unsigned y, size_t len)
{
	struct noc_msg m;
	memset(&m, 0, sizeof(m));
	m.time = c->cycle, m.noc = (uint8_t)noc, m.src_x = 0, m.src_y = 3;   /* the PCI Express tile */
	m.flags = multicast ? MSG_BRCST : 0;
	m.start_x = (uint8_t)x0, m.start_y = (uint8_t)y0, m.dst_x = (uint8_t)(multicast ? x1 : x),
	m.dst_y = (uint8_t)(multicast ? y1 : y);
	struct host_arrival want = { x, y, c->cycle };
	route(c, NULL, &m, 1 + flits_of((uint32_t)(len < MAX_PACKET ? len : MAX_PACKET)), host_arrive, &want);
	return want.when;
}

/* ---- issuing: a core wrote NOC_CMD_CTRL ---- */

static enum ttx_status issue_fail(struct chip_tile *ct, unsigned noc, unsigned ini, const char *fmt, const char *what,
                                  unsigned long long v)
{
	char msg[160];
	snprintf(msg, sizeof(msg), fmt, what, v);
	return ttx_fail(ct->tile, TTX_FAULT, "tile (%u, %u) NIU #%u request initiator %u: %s (NoC/MemoryMap.md)",
	                ct->x, ct->y, noc, ini, msg);
}

static int outbox_push(struct chip_tile *ct, struct noc_msg *m)
{
	m->seq = ct->out_seq++;
	return queue_push(&ct->outbox, m);
}

enum ttx_status chip_noc_issue(struct chip_tile *ct, unsigned noc, unsigned ini, uint64_t cycle)
{
	uint32_t *r = ct->niu[noc] + ini * (0x400 / 4);
	uint32_t ctrl = r[R_CTRL], type = ctrl & 3, tag = r[R_PACKET_TAG], txn = tag >> 10 & 15;
	uint64_t targ = r[R_TARG_LO] | (uint64_t)r[R_TARG_MID] << 32, ret = r[R_RET_LO] | (uint64_t)r[R_RET_MID] << 32;
	struct noc_msg m;
	memset(&m, 0, sizeof(m));
	m.time = cycle, m.noc = (uint8_t)noc, m.txn = (uint8_t)txn, m.src_x = ct->x, m.src_y = ct->y;
	m.flags = (ctrl & 0x10 ? MSG_RESP_MARKED : 0) | (ctrl & 0x08 ? MSG_INLINE : 0) | (ctrl & 0x04 ? MSG_BE : 0) |
	          (ctrl & 0x20 ? MSG_BRCST : 0) | (ctrl >> 16 & 1 ? MSG_BRCST_Y : 0) | (ctrl >> 17 & 1 ? MSG_SRC_INCLUDE : 0);
	if (type == 3)
		return issue_fail(ct, noc, ini, "%s %llu is reserved", "request type", type);
	if (type == 0 && (m.flags & MSG_BRCST))
		return issue_fail(ct, noc, ini, "%s (0x%llX) asks for a broadcast read", "NOC_CTRL", ctrl);
	if (tag >> 6 & 1)
		return issue_fail(ct, noc, ini, "%s 0x%llX: delivery to the receiver's overlay is not modelled",
		                  "NOC_PACKET_TAG", tag);
	/* where it goes: TARG for reads, atomics and inline writes, RET for
	   writes with data (MemoryMap.md, "NOC_TARG_ADDR and NOC_RET_ADDR") */
	int data_write = type == 2 && !(m.flags & MSG_INLINE);
	uint64_t dest = data_write ? ret : targ, back = data_write ? targ : ret;
	unsigned dx = dest >> 36 & 63, dy = dest >> 42 & 63, bx = back >> 36 & 63, by = back >> 42 & 63;
	unsigned sx = dest >> 48 & 63, sy = dest >> 54 & 63;
	if (!resolve(ct, noc, &dx, &dy) || ((m.flags & MSG_BRCST) && !resolve(ct, noc, &sx, &sy)))
		return issue_fail(ct, noc, ini, "%s (0x%llX) names no tile", data_write ? "NOC_RET_ADDR" : "NOC_TARG_ADDR",
		                  dest);
	if ((type == 0 || (type == 1 && (m.flags & MSG_RESP_MARKED)) || data_write) && !resolve(ct, noc, &bx, &by))
		return issue_fail(ct, noc, ini, "%s (0x%llX) names no tile", data_write ? "NOC_TARG_ADDR" : "NOC_RET_ADDR",
		                  back);
	/* translated coordinates are written back as NoC ones (NOC_CMD_CTRL) */
	if (ct->niu[noc][NIU_CFG_0] >> 14 & 1) {
		uint32_t *mid = &r[data_write ? R_RET_MID : R_TARG_MID];
		*mid = (*mid & ~0x00FFF0u) | own_x(noc, dx) << 4 | own_y(noc, dy) << 10;
		if (m.flags & MSG_BRCST)
			*mid = (*mid & ~0xFFF0000u) | own_x(noc, sx) << 16 | own_y(noc, sy) << 22;
	}
	m.dst_x = (uint8_t)dx, m.dst_y = (uint8_t)dy, m.start_x = (uint8_t)sx, m.start_y = (uint8_t)sy;
	m.ret_x = (uint8_t)bx, m.ret_y = (uint8_t)by;
	m.addr = dest & 0xFFFFFFFFFull, m.ret_addr = back & 0xFFFFFFFFFull;
	m.at_len_be = r[R_AT_LEN_BE], m.at_data = r[R_AT_DATA];
	int marked = (m.flags & MSG_RESP_MARKED) != 0;
	r[R_CMD_CTRL] = 0;   /* accepted at once */
	if (type == 1) {   /* Counters.md "Atomic requests" */
		m.type = MSG_ATOMIC;
		if (m.flags & MSG_BRCST)
			m.flags &= (uint8_t)~MSG_RESP_MARKED;   /* (a response from each tile has nowhere to count) */
		if (marked && !(m.flags & MSG_BRCST))
			count(ct, noc, MST_REQS_OUTSTANDING_ID + txn, 1), count(ct, noc, MST_NONPOSTED_ATOMIC_STARTED, 1);
		count(ct, noc, MST_CMD_ACCEPTED, 1);
		count(ct, noc, marked ? MST_NONPOSTED_ATOMIC_SENT : MST_POSTED_ATOMIC_SENT, 1);
		return outbox_push(ct, &m) ? TTX_OK : ttx_fail(ct->tile, TTX_ENOMEM, "out of memory");
	}
	if (type == 2 && (m.flags & MSG_INLINE)) {   /* "Write requests with NOC_CMD_WR_INLINE=true" */
		m.type = MSG_WRITE, m.len = 4;
		if (marked)
			count(ct, noc, MST_REQS_OUTSTANDING_ID + txn, 1);
		count(ct, noc, MST_CMD_ACCEPTED, 1);
		count(ct, noc, marked ? MST_NONPOSTED_WR_REQ_STARTED : MST_POSTED_WR_REQ_STARTED, 1);
		count(ct, noc, marked ? MST_NONPOSTED_WR_REQ_SENT : MST_POSTED_WR_REQ_SENT, 1);
		m.ret_x = ct->x, m.ret_y = ct->y;   /* the acknowledgement comes back here */
		return outbox_push(ct, &m) ? TTX_OK : ttx_fail(ct->tile, TTX_ENOMEM, "out of memory");
	}
	/* reads and writes with data: split into packets of at most 8 KiB */
	uint32_t len = m.at_len_be;
	if (type == 2 && (m.flags & MSG_BE)) {
		/* a byte-enable write: 32 bytes from targ & ~0xF, the mask picks */
		m.addr &= ~0xFull, m.ret_addr &= ~0xFull;
		len = 32;
	}
	if (len == 0)
		return issue_fail(ct, noc, ini, "%s %llu: a read or write moves at least one byte", "NOC_AT_LEN_BE", len);
	unsigned packets = (len + MAX_PACKET - 1) / MAX_PACKET;
	if (packets > 1 && ((m.addr | m.ret_addr) & 15))
		return issue_fail(ct, noc, ini, "%s: a request of more than 8 KiB needs 16-byte aligned addresses (0x%llX)",
		                  "NOC_AT_LEN_BE", len);
	count(ct, noc, MST_REQS_OUTSTANDING_ID + txn, type == 0 || marked ? packets : 0);
	for (unsigned p = 0; p < packets; p++) {
		uint32_t n = len - p * MAX_PACKET < MAX_PACKET ? len - p * MAX_PACKET : MAX_PACKET;
		struct noc_msg k = m;
		k.addr = m.addr + (uint64_t)p * MAX_PACKET, k.ret_addr = m.ret_addr + (uint64_t)p * MAX_PACKET, k.len = n;
		count(ct, noc, MST_CMD_ACCEPTED, 1);
		if (type == 0) {
			k.type = MSG_READ;
			count(ct, noc, MST_RD_REQ_STARTED, 1), count(ct, noc, MST_RD_REQ_SENT, 1);
		} else {
			/* the data leaves L1 now: WRITE_REQS_OUTGOING goes up and down */
			k.type = MSG_WRITE;
			uint32_t src = (uint32_t)k.ret_addr;
			if (src >= TTX_L1_SIZE || n > TTX_L1_SIZE - src)
				return issue_fail(ct, noc, ini, "%s 0x%llX: a write's data must be in this tile's L1", "NOC_TARG_ADDR",
				                  k.ret_addr);
			if (!(k.data = payload_new(n)))
				return ttx_fail(ct->tile, TTX_ENOMEM, "out of memory");
			memcpy(k.data->bytes, ct->tile->l1 + src, n);
			count(ct, noc, marked ? MST_NONPOSTED_WR_REQ_STARTED : MST_POSTED_WR_REQ_STARTED, 1);
			count(ct, noc, marked ? MST_NONPOSTED_WR_REQ_SENT : MST_POSTED_WR_REQ_SENT, 1);
			count(ct, noc, marked ? MST_NONPOSTED_WR_DATA_WORD_SENT : MST_POSTED_WR_DATA_WORD_SENT, flits_of(n));
			/* (the acknowledgement goes to NOC_TARG_ADDR's tile: ret_x/y) */
		}
		if (!outbox_push(ct, &k)) {
			payload_drop(k.data);
			return ttx_fail(ct->tile, TTX_ENOMEM, "out of memory");
		}
	}
	return TTX_OK;
}

/* ---- taking effect at an endpoint ---- */

/* A message's memory access at a Tensix tile (its thread) or another
   endpoint (the routing thread). */
static enum ttx_status endpoint_access(struct ttx_chip *c, struct chip_tile *d, uint64_t addr, void *buf, size_t len,
                                       int store)
{
	if (d->kind != TTX_TILE_TENSIX)
		return chip_tile_access(c, d, addr, buf, len, store);
	uint32_t a = (uint32_t)addr;
	struct ttx_tile *t = d->tile;
	if (a < TTX_L1_SIZE && len <= TTX_L1_SIZE - a)
		return store ? ttx_l1_write(t, a, buf, len) : ttx_l1_read(t, a, buf, len);
	if (a < TTX_L1_SIZE || len != 4)
		return ttx_fail(t, TTX_FAULT, "tile (%u, %u): a NoC access of %zu bytes at 0x%09llX: L1 ends at 0x%X and "
		                "registers take 4-byte accesses (NoC/MemoryMap.md)", d->x, d->y, len,
		                (unsigned long long)addr, TTX_L1_SIZE);
	uint32_t v;
	if (store)
		memcpy(&v, buf, 4);
	enum ttx_status st = chip_tensix_reg(c, d, a, &v, store, t->cycle_floor);
	if (st != TTX_OK)
		return ttx_fail(t, TTX_FAULT, "tile (%u, %u): a NoC %s 0x%08X: %s", d->x, d->y, store ? "write to" : "read of",
		                a, c->error);
	if (!store)
		memcpy(buf, &v, 4);
	return TTX_OK;
}

static const char *endpoint_error(struct ttx_chip *c, struct chip_tile *d)
{
	return d->kind == TTX_TILE_TENSIX ? ttx_tile_error(d->tile) : c->error;
}

/* Send a response from endpoint d (at cycle `when`) back to m's ret. */
static enum ttx_status respond(struct ttx_chip *c, struct chip_tile *d, const struct noc_msg *m, unsigned type,
                               uint64_t when, struct noc_payload *data, uint32_t len)
{
	struct noc_msg r;
	memset(&r, 0, sizeof(r));
	r.time = when, r.type = (uint8_t)type, r.noc = m->noc, r.txn = m->txn;
	r.src_x = d->x, r.src_y = d->y, r.dst_x = m->ret_x, r.dst_y = m->ret_y;
	r.addr = m->ret_addr, r.len = len, r.data = data, r.acks = m->acks;
	r.ret_x = m->src_x, r.ret_y = m->src_y;
	if (d->kind != TTX_TILE_TENSIX)
		r.seq = c->noc.seq++;
	int ok = d->kind == TTX_TILE_TENSIX ? outbox_push(d, &r) : queue_push(&c->chip_out, &r);
	if (!ok) {
		payload_drop(data);
		return d->kind == TTX_TILE_TENSIX ? ttx_fail(d->tile, TTX_ENOMEM, "out of memory")
		                                  : chip_fail(c, TTX_ENOMEM, "out of memory");
	}
	return TTX_OK;
}

static enum ttx_status endpoint_fail(struct ttx_chip *c, struct chip_tile *d, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum ttx_status endpoint_fail(struct ttx_chip *c, struct chip_tile *d, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return d->kind == TTX_TILE_TENSIX ? ttx_fail(d->tile, TTX_FAULT, "%s", msg) : chip_fail(c, TTX_FAULT, "%s", msg);
}

/* An atomic at L1 (Atomics.md; the fields of NOC_AT_LEN_BE as tt-metal's
   NOC_AT_* macros place them); the result for the response. */
static enum ttx_status atomic(struct ttx_chip *c, struct chip_tile *d, const struct noc_msg *m, uint32_t *result)
{
	uint32_t a = (uint32_t)m->addr, be = m->at_len_be, op = be >> 12 & 15;
	if (d->kind != TTX_TILE_TENSIX && d->kind != TTX_TILE_ETH)
		return endpoint_fail(c, d, "an atomic request to %s tile (%u, %u): atomics act on L1 only (NoC/Atomics.md)",
		                     ttx_tile_kind_name(d->kind), d->x, d->y);
	if (m->addr >= TTX_L1_SIZE || (a & 3))
		return endpoint_fail(c, d, "an atomic at 0x%09llX of tile (%u, %u): atomics act on aligned words of L1 "
		                     "(NoC/Atomics.md)", (unsigned long long)m->addr, d->x, d->y);
	enum ttx_status st;
	if ((st = endpoint_access(c, d, a, result, 4, 0)) != TTX_OK)
		return st;
	uint32_t word = (a & ~15u) + 4 * (be & 3), old;
	if ((st = endpoint_access(c, d, word, &old, 4, 0)) != TTX_OK)
		return st;
	switch (op) {
	case 1: {   /* increment within the low IntWidth + 1 bits */
		uint32_t mask = (uint32_t)((2ull << (be >> 2 & 31)) - 1);
		uint32_t v = ((old + m->at_data) & mask) | (old & ~mask);
		return endpoint_access(c, d, word, &v, 4, 1);
	}
	case 4: {   /* compare and swap, 4-bit values */
		uint32_t cmp = be >> 16 & 15, set = be >> 20 & 15;
		return old == cmp ? endpoint_access(c, d, word, &set, 4, 1) : TTX_OK;
	}
	case 3: {   /* swap, mask variant: 16-bit halves */
		uint16_t h[8], put[2] = { (uint16_t)m->at_data, (uint16_t)(m->at_data >> 16) };
		if ((st = endpoint_access(c, d, a & ~15u, h, 16, 0)) != TTX_OK)
			return st;
		for (unsigned i = 0; i < 8; i++)
			if (be >> (16 + i) & 1)
				h[i] = put[i & 1];
		return endpoint_access(c, d, a & ~15u, h, 16, 1);
	}
	case 6: case 7: {   /* swap, index variant */
		uint32_t v = m->at_data;
		return endpoint_access(c, d, word, &v, 4, 1);
	}
	default:
		return endpoint_fail(c, d, "an atomic with opcode %u (NOC_AT_LEN_BE 0x%08X) from (%u, %u): not modelled "
		                     "(NoC/Atomics.md: increment 1, swap 3, compare-and-swap 4, swap 6 / 7)", op, be, m->src_x,
		                     m->src_y);
	}
}

/* m takes effect at endpoint d at cycle `when`. */
static enum ttx_status deliver(struct ttx_chip *c, struct chip_tile *d, const struct noc_msg *m, uint64_t when)
{
	unsigned noc = m->noc;
	int marked = (m->flags & MSG_RESP_MARKED) != 0;
	enum ttx_status st = TTX_OK;
	switch (m->type) {
	case MSG_WRITE:
		count(d, noc, marked ? SLV_NONPOSTED_WR_REQ_STARTED : SLV_POSTED_WR_REQ_STARTED, 1);
		count(d, noc, marked ? SLV_NONPOSTED_WR_REQ_RECEIVED : SLV_POSTED_WR_REQ_RECEIVED, 1);
		count(d, noc, marked ? SLV_NONPOSTED_WR_DATA_WORD_RECEIVED : SLV_POSTED_WR_DATA_WORD_RECEIVED,
		      m->flags & MSG_INLINE ? 1 : flits_of(m->len));
		if (m->flags & MSG_INLINE) {
			uint32_t a = (uint32_t)m->addr;
			if (a >= TTX_L1_SIZE && d->kind == TTX_TILE_TENSIX) {
				st = endpoint_access(c, d, m->addr, (void *)&m->at_data, 4, 1);
			} else {   /* bytes of the 16 at addr & ~15 the enables pick, byte i & 3 of the data */
				uint8_t b[16];
				if ((st = endpoint_access(c, d, m->addr & ~15ull, b, 16, 0)) != TTX_OK)
					break;
				for (unsigned i = 0; i < 16; i++)
					if ((m->at_len_be >> i & 1) || (m->at_len_be >> (16 + i) & 1))
						b[i] = (uint8_t)(m->at_data >> (8 * (i & 3)));
				st = endpoint_access(c, d, m->addr & ~15ull, b, 16, 1);
			}
		} else if (m->flags & MSG_BE) {
			uint8_t b[32];
			if ((st = endpoint_access(c, d, m->addr, b, 32, 0)) != TTX_OK)
				break;
			for (unsigned i = 0; i < 32; i++)
				if (m->at_len_be >> i & 1)
					b[i] = m->data->bytes[i];
			st = endpoint_access(c, d, m->addr, b, 32, 1);
		} else {
			st = endpoint_access(c, d, m->addr, m->data->bytes, m->len, 1);
		}
		if (st == TTX_OK && marked) {
			count(d, noc, SLV_WR_ACK_SENT, 1);
			st = respond(c, d, m, MSG_WRITE_ACK, when, NULL, 0);
		}
		break;
	case MSG_READ: {
		count(d, noc, SLV_REQ_ACCEPTED, 1), count(d, noc, SLV_RD_REQ_RECEIVED, 1);
		struct noc_payload *p = payload_new(m->len);
		if (!p)
			return d->kind == TTX_TILE_TENSIX ? ttx_fail(d->tile, TTX_ENOMEM, "out of memory")
			                                  : chip_fail(c, TTX_ENOMEM, "out of memory");
		if ((st = endpoint_access(c, d, m->addr, p->bytes, m->len, 0)) != TTX_OK) {
			payload_drop(p);
			break;
		}
		count(d, noc, SLV_RD_RESP_SENT, 1), count(d, noc, SLV_RD_DATA_WORD_SENT, flits_of(m->len));
		st = respond(c, d, m, MSG_READ_RESP, when, p, m->len);
		break;
	}
	case MSG_ATOMIC: {
		count(d, noc, SLV_REQ_ACCEPTED, 1);
		count(d, noc, marked ? SLV_NONPOSTED_ATOMIC_RECEIVED : SLV_POSTED_ATOMIC_RECEIVED, 1);
		uint32_t result;
		if ((st = atomic(c, d, m, &result)) != TTX_OK || !marked)
			break;
		count(d, noc, SLV_ATOMIC_RESP_SENT, 1);
		struct noc_payload *p = payload_new(4);
		if (!p)
			return d->kind == TTX_TILE_TENSIX ? ttx_fail(d->tile, TTX_ENOMEM, "out of memory")
			                                  : chip_fail(c, TTX_ENOMEM, "out of memory");
		memcpy(p->bytes, &result, 4);
		st = respond(c, d, m, MSG_ATOMIC_RESP, when, p, 4);
		break;
	}
	case MSG_READ_RESP: case MSG_ATOMIC_RESP:
		if ((st = endpoint_access(c, d, m->addr, m->data->bytes, m->len, 1)) != TTX_OK)
			break;
		if (m->type == MSG_READ_RESP)
			count(d, noc, MST_RD_RESP_RECEIVED, 1), count(d, noc, MST_RD_DATA_WORD_RECEIVED, flits_of(m->len));
		else
			count(d, noc, MST_ATOMIC_RESP_RECEIVED, 1);
		count(d, noc, MST_REQS_OUTSTANDING_ID + m->txn, (uint32_t)-1);
		break;
	case MSG_WRITE_ACK:
		count(d, noc, MST_WR_ACK_RECEIVED, 1);
		/* (a multicast's: with the last of them) */
		if (!m->acks || --c->noc.acks[m->acks - 1] == 0)
			count(d, noc, MST_REQS_OUTSTANDING_ID + m->txn, (uint32_t)-1);
		break;
	}
	if (st != TTX_OK && d->kind == TTX_TILE_TENSIX && !strstr(ttx_tile_error(d->tile), "from ("))
		ttx_fail(d->tile, st, "%s (a NoC %s from (%u, %u) on NoC #%u)", ttx_tile_error(d->tile),
		         m->type == MSG_READ ? "read" : m->type == MSG_ATOMIC ? "atomic" : "write", m->src_x, m->src_y, noc);
	return st;
}

/* DRAM's latency and bandwidth (docs/timing.md): a channel serves one
   request at a time at DRAM_BYTES_PER_CYCLE; reads add the access time. */
static uint64_t dram_service(struct ttx_chip *c, struct chip_tile *d, const struct noc_msg *m, uint64_t when)
{
	unsigned ch = d->group;
	uint32_t bytes = m->type == MSG_READ || !(m->flags & MSG_INLINE) ? m->len : 4;
	uint64_t cycles = (bytes + DRAM_BYTES_PER_CYCLE - 1) / DRAM_BYTES_PER_CYCLE;
	uint64_t start = when > c->noc.dram_busy_until[ch] ? when : c->noc.dram_busy_until[ch];
	c->noc.dram_busy_until[ch] = start + cycles;
	c->noc.dram_busy_cycles[ch] += cycles;
	c->noc.dram_bytes[ch] += bytes;
	return start + cycles + (m->type == MSG_READ ? DRAM_LATENCY_CYCLES : 0);
}

/* ---- routing, on one thread between quanta ---- */

static enum ttx_status arrive(struct ttx_chip *c, void *ctx, const struct noc_msg *m, struct chip_tile *d,
                              uint64_t when)
{
	(void)ctx;
	struct noc_msg k = *m;
	k.time = when + NOC_NIU_CYCLES;
	k.seq = c->noc.seq++;
	k.dst_x = d->x, k.dst_y = d->y;
	if (k.data)
		atomic_fetch_add(&k.data->refs, 1);
	if (k.acks && k.type == MSG_WRITE)
		c->noc.acks[k.acks - 1]++;
	if (d->kind == TTX_TILE_TENSIX) {
		chip_activate(c, d);
		if (!heap_push(&d->inbox, &k))
			goto nomem;
		return TTX_OK;
	}
	if (d->kind == TTX_TILE_HARVESTED || d->kind == TTX_TILE_ROUTER || d->kind == TTX_TILE_NONE) {
		payload_drop(k.data);
		return chip_fail(c, TTX_FAULT, "a NoC %s from (%u, %u) to %s tile (%u, %u)",
		                 m->type == MSG_READ ? "read" : "request", m->src_x, m->src_y, ttx_tile_kind_name(d->kind),
		                 d->x, d->y);
	}
	if (!heap_push(&c->far, &k))
		goto nomem;
	return TTX_OK;
nomem:
	payload_drop(k.data);
	return chip_fail(c, TTX_ENOMEM, "out of memory for NoC packets");
}

/* A slot counting a multicast write's outstanding acknowledgements (the
   routing thread hands them out; a slot at 0 is free). */
static enum ttx_status acks_slot(struct ttx_chip *c, struct noc_msg *m)
{
	struct noc_state *s = &c->noc;
	for (size_t i = 0; i < s->nacks; i++)
		if (s->acks[i] == 0) {
			m->acks = (uint32_t)i + 1;
			return TTX_OK;
		}
	uint32_t *a = realloc(s->acks, (s->nacks + 1) * sizeof(*a));
	if (!a)
		return chip_fail(c, TTX_ENOMEM, "out of memory for NoC packets");
	s->acks = a;
	s->acks[s->nacks++] = 0;
	m->acks = (uint32_t)s->nacks;
	return TTX_OK;
}

static int batch_order(const void *pa, const void *pb)
{
	const struct noc_msg *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	unsigned ia = a->src_x * CHIP_Y + a->src_y, ib = b->src_x * CHIP_Y + b->src_y;
	if (ia != ib)
		return ia < ib ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static unsigned packet_flits(const struct noc_msg *m)
{
	switch (m->type) {
	case MSG_WRITE:
		return 1 + (m->flags & MSG_INLINE ? 0 : flits_of(m->len));
	case MSG_READ_RESP:
		return 1 + flits_of(m->len);
	default:
		return 1;
	}
}

enum ttx_status chip_noc_route(struct ttx_chip *c, uint64_t boundary)
{
	struct noc_state *s = &c->noc;
	enum ttx_status st = TTX_OK;
	/* what reached DRAM and the other endpoints by now, in order */
	while (c->far.n && c->far.v[0].time <= boundary) {
		struct noc_msg m = heap_pop(&c->far);
		struct chip_tile *d = &c->grid[m.dst_x][m.dst_y];
		uint64_t done = d->kind == TTX_TILE_DRAM ? dram_service(c, d, &m, m.time) : m.time;
		if (st == TTX_OK && (st = deliver(c, d, &m, done)) != TTX_OK) {
			char why[sizeof(c->error)];
			snprintf(why, sizeof(why), "%s", endpoint_error(c, d));
			chip_fail(c, st, "%s (a NoC %s from (%u, %u) on NoC #%u)", why,
			          m.type == MSG_READ ? "read" : m.type == MSG_ATOMIC ? "atomic" : "write", m.src_x, m.src_y,
			          m.noc);
		}
		payload_drop(m.data);
		if (st != TTX_OK)
			return st;
	}
	/* everything sent since the last boundary */
	size_t n = c->chip_out.n;
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++)
			n += c->grid[x][y].outbox.n;
	if (!n)
		return TTX_OK;
	if (n > s->batch_cap) {
		struct noc_msg *b = realloc(s->batch, n * sizeof(*b));
		if (!b)
			return chip_fail(c, TTX_ENOMEM, "out of memory for NoC packets");
		s->batch = b, s->batch_cap = n;
	}
	size_t k = 0;
	for (size_t i = 0; i < c->chip_out.n; i++)
		s->batch[k++] = c->chip_out.v[i];
	c->chip_out.n = 0;
	for (unsigned x = 0; x < CHIP_X; x++)
		for (unsigned y = 0; y < CHIP_Y; y++) {
			struct chip_tile *ct = &c->grid[x][y];
			if (!ct->outbox.n)
				continue;
			memcpy(s->batch + k, ct->outbox.v, ct->outbox.n * sizeof(*s->batch));
			k += ct->outbox.n;
			ct->outbox.n = 0;
		}
	qsort(s->batch, n, sizeof(*s->batch), batch_order);
	for (size_t i = 0; i < n; i++) {
		struct noc_msg *m = &s->batch[i];
		unsigned flits = packet_flits(m);
		s->packets++, s->flits += flits;
		if (st == TTX_OK && m->type == MSG_WRITE && (m->flags & MSG_BRCST) && (m->flags & MSG_RESP_MARKED))
			st = acks_slot(c, m);
		if (st == TTX_OK) {
			st = route(c, s, m, flits, arrive, NULL);
			if (m->acks && c->noc.acks[m->acks - 1] == 0)   /* a multicast that reached no tile */
				count(&c->grid[m->src_x][m->src_y], m->noc, MST_REQS_OUTSTANDING_ID + m->txn, (uint32_t)-1);
		}
		payload_drop(m->data);
	}
	return st;
}

/* Run Tensix tile ct to `end`, stopping at each message of its inbox
   before then to let it take effect (its thread; clock.c). */
enum ttx_status chip_noc_advance(struct ttx_chip *c, struct chip_tile *ct, uint64_t end)
{
	struct ttx_tile *t = ct->tile;
	enum ttx_status st;
	while (ct->inbox.n && ct->inbox.v[0].time < end) {
		uint64_t when = ct->inbox.v[0].time;
		if (when > t->cycle_floor) {
			st = ttx_run_cycles(t, when, 0);
			if (st != TTX_OK && st != TTX_LIMIT)
				return st;
			t->cycle_floor = when;
		}
		while (ct->inbox.n && ct->inbox.v[0].time == when) {
			struct noc_msg m = heap_pop(&ct->inbox);
			st = deliver(c, ct, &m, when);
			payload_drop(m.data);
			if (st != TTX_OK)
				return st;
		}
		t->core_epoch++;   /* a core polling L1 or a counter may go on */
	}
	return ttx_run_cycles(t, end, 0);
}
