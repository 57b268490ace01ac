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

static int stub_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct jperf_stub *s = stub_of_qp(qp);
	uint64_t posted = 0, signaled = 0;
	int rc = 0;

	s->counters[JPERF_STUB_POST_SEND_CALLS]++;
	for (; wr; wr = wr->next) {
		if (s->execute_writes && wr->opcode == IBV_WR_RDMA_WRITE) {
			char *to = (char *)(uintptr_t)wr->wr.rdma.remote_addr;
			for (int i = 0; i < wr->num_sge; i++) {
				memcpy(to, (const void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
				to += wr->sg_list[i].length;
			}
		}
		if (wr->send_flags & IBV_SEND_SIGNALED) {
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
			wc->status = IBV_WC_SUCCESS;
			wc->opcode = IBV_WC_RDMA_WRITE;
			wc->vendor_err = 0;
			wc->byte_len = sge_bytes(wr);
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
	(void)bad_wr;
	for (; wr; wr = wr->next)
		s->counters[JPERF_STUB_POSTED_RECVS]++;
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
	if (!s->ring) {
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
}

void jperf_stub_set_execute_writes(struct jperf_stub *stub, int on)
{
	stub->execute_writes = on != 0;
}

int64_t jperf_stub_noop(int64_t x)
{
	return x + 1;
}
