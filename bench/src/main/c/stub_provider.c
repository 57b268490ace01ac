/*
 * jperf bench: the fake always-ready verbs provider. See stub_provider.h.
 *
 * The ops are static and reached only through the function pointers in the fake
 * ibv_context, from Java (InlineVerbs) or from stub_c_loop.c (ibv_post_send/ibv_poll_cq),
 * so both sides pay exactly the same provider cost.
 */
#include "stub_provider.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JPERF_STUB_QP_NUM 0x11u
#define JPERF_STUB_RECV_SLOTS 65536u

struct stub_recv {
	uint64_t wr_id;
	uint64_t addr;
	uint32_t length;
};

struct jperf_stub {
	struct ibv_context context;
	struct ibv_qp qp;
	struct ibv_cq cq;
	struct ibv_wc *ring;      /* mask + 1 entries (a power of two >= depth) */
	uint32_t depth;           /* completions the CQ holds (the cq_depth asked for) */
	uint32_t mask;
	uint64_t head;            /* next completion to poll */
	uint64_t tail;            /* next free slot; tail - head = pending */
	int execute_writes;       /* copy RDMA WRITE payloads to remote_addr */
	int deliver_sends;        /* SENDs land in this QP's own posted receives */
	int execute_atomics;      /* perform fetch-and-add / compare-and-swap on wr.atomic.remote_addr */
	struct stub_recv *recvs;  /* JPERF_STUB_RECV_SLOTS queued receives (with deliver_sends) */
	uint64_t recv_head;       /* next receive a SEND consumes */
	uint64_t recv_tail;       /* next free receive slot */
	uint64_t counters[JPERF_STUB_COUNTER_COUNT];
};

/* The fake objects are members of struct jperf_stub; recover it from them. */
static struct jperf_stub *stub_of_qp(struct ibv_qp *qp)
{
	return (struct jperf_stub *)((char *)qp - offsetof(struct jperf_stub, qp));
}

static struct jperf_stub *stub_of_cq(struct ibv_cq *cq)
{
	return (struct jperf_stub *)((char *)cq - offsetof(struct jperf_stub, cq));
}

static uint32_t sge_bytes(const struct ibv_send_wr *wr)
{
	uint32_t bytes = 0;
	for (int i = 0; i < wr->num_sge; i++)
		bytes += wr->sg_list[i].length;
	return bytes;
}

/* Queues a completion; 0, or -1 when the CQ ring is full. */
static int queue_wc(struct jperf_stub *s, uint64_t wr_id, enum ibv_wc_opcode opcode, uint32_t bytes)
{
	if (s->tail - s->head >= s->depth)
		return -1;
	struct ibv_wc *wc = &s->ring[s->tail & s->mask];
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->status = IBV_WC_SUCCESS;
	wc->opcode = opcode;
	wc->byte_len = bytes;
	wc->qp_num = s->qp.qp_num;
	s->tail++;
	s->counters[JPERF_STUB_COMPLETIONS]++;
	return 0;
}

/* Delivers one SEND to the oldest queued receive; 0, EAGAIN (no receive) or ENOMEM (CQ full). */
static int deliver_send(struct jperf_stub *s, const struct ibv_send_wr *wr)
{
	if (s->recv_head == s->recv_tail) {
		s->counters[JPERF_STUB_RNR]++;
		return EAGAIN;
	}
	if (s->tail - s->head >= s->depth)
		return ENOMEM;
	struct stub_recv *r = &s->recvs[s->recv_head % JPERF_STUB_RECV_SLOTS];
	uint32_t copied = 0;
	for (int i = 0; i < wr->num_sge; i++) {
		uint32_t n = wr->sg_list[i].length;
		if (copied + n > r->length)
			n = r->length - copied;
		memcpy((char *)(uintptr_t)r->addr + copied, (const void *)(uintptr_t)wr->sg_list[i].addr, n);
		copied += n;
	}
	s->recv_head++;
	queue_wc(s, r->wr_id, IBV_WC_RECV, copied);
	s->counters[JPERF_STUB_DELIVERED_SENDS]++;
	return 0;
}

static int is_atomic(const struct ibv_send_wr *wr)
{
	return wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
}

/*
 * Performs one atomic on the 64-bit word at wr.atomic.remote_addr and stores the word's original value
 * at the first SGE's address, as a responder and the requester's HCA do. Returns IBV_WC_SUCCESS, or
 * IBV_WC_REM_INV_REQ_ERR (nothing done) for a misaligned remote address or an SGE other than 8 bytes,
 * which a real responder refuses too.
 */
static enum ibv_wc_status execute_atomic(const struct ibv_send_wr *wr)
{
	uint64_t at = wr->wr.atomic.remote_addr;
	if ((at & 7u) != 0 || wr->num_sge != 1 || wr->sg_list[0].length != 8)
		return IBV_WC_REM_INV_REQ_ERR;
	uint64_t *word = (uint64_t *)(uintptr_t)at;
	uint64_t original = *word;
	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
		*word = original + wr->wr.atomic.compare_add;
	else if (original == wr->wr.atomic.compare_add)
		*word = wr->wr.atomic.swap;
	memcpy((void *)(uintptr_t)wr->sg_list[0].addr, &original, sizeof(original));
	return IBV_WC_SUCCESS;
}

static int stub_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct jperf_stub *s = stub_of_qp(qp);
	uint64_t posted = 0, signaled = 0;
	int rc = 0;

	s->counters[JPERF_STUB_POST_SEND_CALLS]++;
	for (; wr; wr = wr->next) {
		if (s->deliver_sends && wr->opcode == IBV_WR_SEND) {
			/* the receive's completion and the send's must both fit */
			if ((wr->send_flags & IBV_SEND_SIGNALED) && s->tail - s->head + 1 >= s->depth) {
				*bad_wr = wr;
				rc = ENOMEM;
				break;
			}
			rc = deliver_send(s, wr);
			if (rc) {
				*bad_wr = wr;
				break;
			}
		}
		if (s->execute_writes && wr->opcode == IBV_WR_RDMA_WRITE) {
			char *to = (char *)(uintptr_t)wr->wr.rdma.remote_addr;
			for (int i = 0; i < wr->num_sge; i++) {
				memcpy(to, (const void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
				to += wr->sg_list[i].length;
			}
		}
		enum ibv_wc_status status = IBV_WC_SUCCESS;
		if (s->execute_atomics && is_atomic(wr))
			status = execute_atomic(wr);
		/* a failed request completes whether signaled or not, as on a real QP */
		if ((wr->send_flags & IBV_SEND_SIGNALED) || status != IBV_WC_SUCCESS) {
			if (s->tail - s->head >= s->depth) {
				/* CQ full: refuse this WR and the rest, like a full queue. */
				for (struct ibv_send_wr *w = wr; w; w = w->next)
					s->counters[JPERF_STUB_REJECTED_WRS]++;
				*bad_wr = wr;
				rc = ENOMEM;
				break;
			}
			struct ibv_wc *wc = &s->ring[s->tail & s->mask];
			wc->wr_id = wr->wr_id;
			wc->status = status;
			wc->opcode = !is_atomic(wr) ? IBV_WC_RDMA_WRITE
				: wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ? IBV_WC_FETCH_ADD : IBV_WC_COMP_SWAP;
			wc->vendor_err = 0;
			wc->byte_len = status == IBV_WC_SUCCESS ? sge_bytes(wr) : 0;
			wc->qp_num = qp->qp_num;
			wc->src_qp = 0;
			wc->wc_flags = 0;
			wc->pkey_index = 0;
			wc->slid = 0;
			wc->sl = 0;
			wc->dlid_path_bits = 0;
			s->tail++;
			signaled++;
		}
		posted++;
	}
	s->counters[JPERF_STUB_POSTED_WRS] += posted;
	s->counters[JPERF_STUB_SIGNALED_WRS] += signaled;
	s->counters[JPERF_STUB_COMPLETIONS] += signaled;
	return rc;
}

static int stub_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	struct jperf_stub *s = stub_of_cq(cq);
	int n = 0;

	s->counters[JPERF_STUB_POLL_CQ_CALLS]++;
	if (num_entries < 0)
		return -EINVAL;
	while (n < num_entries && s->head != s->tail) {
		wc[n++] = s->ring[s->head & s->mask];
		s->head++;
	}
	s->counters[JPERF_STUB_POLLED] += (uint64_t)n;
	return n;
}

static int stub_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct jperf_stub *s = stub_of_qp(qp);
	for (; wr; wr = wr->next) {
		if (s->deliver_sends) {
			if (s->recv_tail - s->recv_head >= JPERF_STUB_RECV_SLOTS) {
				*bad_wr = wr;
				return ENOMEM;
			}
			struct stub_recv *r = &s->recvs[s->recv_tail % JPERF_STUB_RECV_SLOTS];
			r->wr_id = wr->wr_id;
			r->addr = wr->num_sge > 0 ? wr->sg_list[0].addr : 0;
			r->length = wr->num_sge > 0 ? wr->sg_list[0].length : 0;
			s->recv_tail++;
		}
		s->counters[JPERF_STUB_POSTED_RECVS]++;
	}
	return 0;
}

static int stub_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	(void)solicited_only;
	stub_of_cq(cq)->counters[JPERF_STUB_NOTIFY_CALLS]++;
	return 0;
}

struct jperf_stub *jperf_stub_create(int cq_depth)
{
	if (cq_depth < 1)
		return NULL;
	if (cq_depth > (1 << 24))
		return NULL;
	struct jperf_stub *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	/* Index the ring with a mask, not a division: the stub must cost next to nothing. */
	uint32_t slots = 1;
	while (slots < (uint32_t)cq_depth)
		slots <<= 1;
	s->ring = calloc(slots, sizeof(struct ibv_wc));
	s->recvs = calloc(JPERF_STUB_RECV_SLOTS, sizeof(struct stub_recv));
	if (!s->ring || !s->recvs) {
		free(s->ring);
		free(s->recvs);
		free(s);
		return NULL;
	}
	s->depth = (uint32_t)cq_depth;
	s->mask = slots - 1;

	s->context.device = NULL;
	s->context.ops.post_send = stub_post_send;
	s->context.ops.post_recv = stub_post_recv;
	s->context.ops.poll_cq = stub_poll_cq;
	s->context.ops.req_notify_cq = stub_req_notify_cq;
	s->context.cmd_fd = -1;
	s->context.async_fd = -1;
	s->context.num_comp_vectors = 1;

	s->cq.context = &s->context;
	s->cq.cqe = cq_depth;

	s->qp.context = &s->context;
	s->qp.send_cq = &s->cq;
	s->qp.recv_cq = &s->cq;
	s->qp.qp_num = JPERF_STUB_QP_NUM;
	s->qp.state = IBV_QPS_RTS;
	s->qp.qp_type = IBV_QPT_RC;
	return s;
}

void jperf_stub_destroy(struct jperf_stub *stub)
{
	if (!stub)
		return;
	free(stub->ring);
	free(stub->recvs);
	free(stub);
}

struct ibv_context *jperf_stub_context(struct jperf_stub *stub)
{
	return &stub->context;
}

struct ibv_qp *jperf_stub_qp(struct jperf_stub *stub)
{
	return &stub->qp;
}

struct ibv_cq *jperf_stub_cq(struct jperf_stub *stub)
{
	return &stub->cq;
}

uint64_t jperf_stub_counter(const struct jperf_stub *stub, int id)
{
	if (id < 0 || id >= JPERF_STUB_COUNTER_COUNT)
		return UINT64_MAX;
	return stub->counters[id];
}

int jperf_stub_cq_pending(const struct jperf_stub *stub)
{
	return (int)(stub->tail - stub->head);
}

void jperf_stub_reset(struct jperf_stub *stub)
{
	memset(stub->counters, 0, sizeof(stub->counters));
	stub->head = 0;
	stub->tail = 0;
	/* queued receives stay: they belong to the QP, not to the counters */
}

void jperf_stub_set_execute_writes(struct jperf_stub *stub, int on)
{
	stub->execute_writes = on != 0;
}

void jperf_stub_set_execute_atomics(struct jperf_stub *stub, int on)
{
	stub->execute_atomics = on != 0;
}

void jperf_stub_set_deliver_sends(struct jperf_stub *stub, int on)
{
	stub->deliver_sends = on != 0;
}

int jperf_stub_recv_pending(const struct jperf_stub *stub)
{
	return (int)(stub->recv_tail - stub->recv_head);
}

int64_t jperf_stub_noop(int64_t x)
{
	return x + 1;
}
