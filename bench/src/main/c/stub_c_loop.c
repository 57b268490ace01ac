/*
 * jperf bench: the C baselines. jperf_stub_c_loop is perftest's write_bw post/poll loop (run_iter_bw, iterations
 * mode, one QP) against the stub provider, through the provider's function pointers exactly
 * as a C program would call them (the static inline ibv_post_send / ibv_poll_cq of verbs.h).
 *
 * Kept in its own translation unit so the compiler cannot see (and inline) the stub's ops:
 * every post and poll is an indirect call, as it is from Java.
 *
 * It does per WR exactly what io.jperf.bench.PostPollLoop does in Java: patch the
 * signaled flag and wr_id of the chain, post the chain, poll a batch of 16 completions and
 * check each status. jperf_stub_c_lat_loop is the write_lat step (run_iter_lat_write, server
 * side), round for round what io.jperf.engine.LatencyLoop does, on a stub that executes writes.
 */
#include "stub_provider.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_BATCH 16   /* perftest's CTX_POLL_BATCH */

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t jperf_stub_c_loop(struct jperf_stub *stub, int64_t iterations, int post_list, int cq_mod,
			  int tx_depth, int size)
{
	if (!stub || iterations < 1 || post_list < 1 || cq_mod < 1 || tx_depth < post_list || size < 0)
		return -1;
	const int moderation = post_list > 1 ? post_list : cq_mod;
	if (iterations % post_list != 0 || iterations % moderation != 0)
		return -1;

	struct ibv_qp *qp = jperf_stub_qp(stub);
	struct ibv_cq *cq = jperf_stub_cq(stub);
	struct ibv_send_wr *wrs = calloc((size_t)post_list, sizeof(*wrs));
	struct ibv_sge *sges = calloc((size_t)post_list, sizeof(*sges));
	struct ibv_wc wc[POLL_BATCH];
	static char local[64];
	static char remote[64];
	int64_t rc = 0;

	if (!wrs || !sges) {
		free(wrs);
		free(sges);
		return -5;
	}
	/* Built once, like WriteRequestList. */
	for (int i = 0; i < post_list; i++) {
		sges[i].addr = (uintptr_t)local;
		sges[i].length = (uint32_t)size;
		sges[i].lkey = 0x1234;
		wrs[i].wr_id = (uint64_t)i;
		wrs[i].next = i + 1 < post_list ? &wrs[i + 1] : NULL;
		wrs[i].sg_list = &sges[i];
		wrs[i].num_sge = 1;
		wrs[i].opcode = IBV_WR_RDMA_WRITE;
		wrs[i].send_flags = 0;
		wrs[i].wr.rdma.remote_addr = (uintptr_t)remote;
		wrs[i].wr.rdma.rkey = 0x5678;
	}
	if (post_list > 1)
		wrs[post_list - 1].send_flags |= IBV_SEND_SIGNALED;

	struct ibv_send_wr *last = &wrs[post_list - 1];
	struct ibv_send_wr *bad_wr = NULL;
	int64_t scnt = 0, ccnt = 0;
	const int64_t start = now_ns();

	while (scnt < iterations || ccnt < iterations) {
		while (scnt < iterations && scnt - ccnt + post_list <= tx_depth) {
			if (post_list == 1) {
				if (scnt % cq_mod == cq_mod - 1)
					last->send_flags |= IBV_SEND_SIGNALED;
				else
					last->send_flags &= ~IBV_SEND_SIGNALED;
			}
			last->wr_id = (uint64_t)(scnt + post_list - 1);
			if (ibv_post_send(qp, wrs, &bad_wr) != 0) {
				rc = -2;
				goto out;
			}
			scnt += post_list;
		}
		if (ccnt < iterations) {
			int ne = ibv_poll_cq(cq, POLL_BATCH, wc);
			if (ne < 0) {
				rc = -3;
				goto out;
			}
			for (int i = 0; i < ne; i++) {
				if (wc[i].status != IBV_WC_SUCCESS) {
					rc = -4;
					goto out;
				}
				ccnt += moderation;
			}
		}
	}
	rc = now_ns() - start;
out:
	free(wrs);
	free(sges);
	return rc;
}

/*
 * jperf_stub_c_loop with the bookkeeping perftest's run_iter_bw really does per work request and per
 * completion, where jperf_stub_c_loop keeps only what PostPollLoop does:
 *  - the counters are per-QP arrays in memory that the rest of the program can reach (perftest's
 *    ctx->scnt / ctx->ccnt, plus totscnt / totccnt), so every indirect call makes the compiler store
 *    and reload them, instead of locals in callee-saved registers;
 *  - post list 1 tests the moderation twice per post: before it (clear the signal on a write that
 *    starts a run) and after it (set the signal for the write that ends one);
 *  - every WR's wr_id is its QP's index, set once (no per-post wr_id store);
 *  - each completion's wr_id is read as the QP index, its count credited to that QP's ccnt (with
 *    perftest's fill-count check for a last, short run) and to totccnt.
 * It leaves out what BandwidthLoopBenchmark leaves out of the engine too: the peak's per-post and
 * per-completion timestamps, and the address cycle (64 KiB writes are not cycled by perftest).
 * Same WRs signalled, same return convention as jperf_stub_c_loop.
 */
struct perftest_counters {
	int64_t *scnt;
	int64_t *ccnt;
	int64_t totscnt;
	int64_t totccnt;
};

int64_t jperf_stub_c_perftest_loop(struct jperf_stub *stub, int64_t iterations, int post_list, int cq_mod,
				   int tx_depth, int size)
{
	if (!stub || iterations < 1 || post_list < 1 || cq_mod < 1 || tx_depth < post_list || size < 0)
		return -1;
	const int moderation = post_list > 1 ? post_list : cq_mod;
	if (iterations % post_list != 0 || iterations % moderation != 0)
		return -1;

	const int num_qps = 1;
	struct ibv_qp *qp = jperf_stub_qp(stub);
	struct ibv_cq *cq = jperf_stub_cq(stub);
	struct ibv_send_wr *wrs = calloc((size_t)post_list, sizeof(*wrs));
	struct ibv_sge *sges = calloc((size_t)post_list, sizeof(*sges));
	struct perftest_counters *c = calloc(1, sizeof(*c));
	int64_t *scnt = calloc((size_t)num_qps, sizeof(*scnt));
	int64_t *ccnt = calloc((size_t)num_qps, sizeof(*ccnt));
	struct ibv_wc wc[POLL_BATCH];
	static char local[64];
	static char remote[64];
	int64_t rc = 0;

	if (!wrs || !sges || !c || !scnt || !ccnt) {
		rc = -5;
		goto out;
	}
	c->scnt = scnt;
	c->ccnt = ccnt;
	/* The counters escape, as perftest's context does: the compiler must assume any call reaches them. */
	__asm__ volatile("" : : "r"(c) : "memory");
	for (int i = 0; i < post_list; i++) {
		sges[i].addr = (uintptr_t)local;
		sges[i].length = (uint32_t)size;
		sges[i].lkey = 0x1234;
		wrs[i].wr_id = 0;   /* the QP's index */
		wrs[i].next = i + 1 < post_list ? &wrs[i + 1] : NULL;
		wrs[i].sg_list = &sges[i];
		wrs[i].num_sge = 1;
		wrs[i].opcode = IBV_WR_RDMA_WRITE;
		wrs[i].send_flags = post_list == 1 ? IBV_SEND_SIGNALED : 0;
		wrs[i].wr.rdma.remote_addr = (uintptr_t)remote;
		wrs[i].wr.rdma.rkey = 0x5678;
	}
	if (post_list > 1)
		wrs[post_list - 1].send_flags |= IBV_SEND_SIGNALED;

	const int64_t total = iterations * num_qps;
	const int fill_count = iterations % moderation != 0;
	struct ibv_send_wr *bad_wr = NULL;
	const int64_t start = now_ns();

	while (c->totscnt < total || c->totccnt < total) {
		for (int q = 0; q < num_qps; q++) {
			while (c->scnt[q] < iterations && c->scnt[q] - c->ccnt[q] + post_list <= tx_depth) {
				if (post_list == 1 && c->scnt[q] % cq_mod == 0 && cq_mod > 1
				    && c->scnt[q] != iterations - 1)
					wrs[0].send_flags &= ~IBV_SEND_SIGNALED;
				if (ibv_post_send(qp, wrs, &bad_wr) != 0) {
					rc = -2;
					goto out;
				}
				c->scnt[q] += post_list;
				c->totscnt += post_list;
				if (post_list == 1 && (c->scnt[q] % cq_mod == cq_mod - 1 || c->scnt[q] == iterations - 1))
					wrs[0].send_flags |= IBV_SEND_SIGNALED;
			}
		}
		if (c->totccnt < total) {
			int ne = ibv_poll_cq(cq, POLL_BATCH, wc);
			if (ne < 0) {
				rc = -3;
				goto out;
			}
			for (int i = 0; i < ne; i++) {
				int id = (int)wc[i].wr_id;
				if (wc[i].status != IBV_WC_SUCCESS) {
					rc = -4;
					goto out;
				}
				int64_t fill = moderation;
				if (fill_count && c->ccnt[id] + moderation > iterations)
					fill = iterations - c->ccnt[id];
				c->ccnt[id] += fill;
				c->totccnt += fill;
			}
		}
	}
	rc = now_ns() - start;
out:
	free(wrs);
	free(sges);
	free(c);
	free(scnt);
	free(ccnt);
	return rc;
}

int64_t jperf_stub_c_lat_loop(struct jperf_stub *stub, int64_t iterations, int size)
{
	if (!stub || iterations < 1 || size < 1)
		return -1;
	struct ibv_qp *qp = jperf_stub_qp(stub);
	struct ibv_cq *cq = jperf_stub_cq(stub);
	int64_t *stamps = malloc((size_t)iterations * sizeof(*stamps));
	volatile uint8_t *send = aligned_alloc(64, ((size_t)size + 63) / 64 * 64);
	volatile uint8_t *recv = aligned_alloc(64, ((size_t)size + 63) / 64 * 64);
	int64_t rc = 0;

	if (!stamps || !send || !recv) {
		rc = -5;
		goto out;
	}
	memset((void *)send, 0, (size_t)size);
	memset((void *)recv, 0, (size_t)size);

	struct ibv_sge sge = { .addr = (uintptr_t)send, .length = (uint32_t)size, .lkey = 0x1234 };
	struct ibv_send_wr wr = { 0 };
	struct ibv_send_wr *bad_wr = NULL;
	struct ibv_wc wc;
	wr.wr_id = 0;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)recv;   /* the "peer" is our own receive buffer */
	wr.wr.rdma.rkey = 0x5678;
	const int64_t last = size - 1;
	int64_t sent = 0, completed = 0, received = 0;

	jperf_stub_set_execute_writes(stub, 1);
	const int64_t start = now_ns();
	for (;;) {
		if (sent >= iterations && completed >= iterations && received >= iterations)
			break;
		if (received < iterations && !(sent < 1)) {       /* the server sends first */
			received++;
			uint64_t spins = 0;
			while (__atomic_load_n(&recv[last], __ATOMIC_ACQUIRE) != (uint8_t)received) {
				if (++spins > (1u << 30)) {
					rc = -6;
					goto out;
				}
			}
		}
		if (sent < iterations) {
			stamps[sent] = now_ns();
			__atomic_store_n(&send[last], (uint8_t)++sent, __ATOMIC_RELEASE);
			if (ibv_post_send(qp, &wr, &bad_wr) != 0) {
				rc = -2;
				goto out;
			}
		}
		if (completed < iterations) {
			int ne;
			while ((ne = ibv_poll_cq(cq, 1, &wc)) == 0)
				;
			if (ne < 0) {
				rc = -3;
				goto out;
			}
			if (wc.status != IBV_WC_SUCCESS) {
				rc = -4;
				goto out;
			}
			completed++;
		}
	}
	rc = now_ns() - start;
	/* Keep the stamps observable so the compiler cannot drop them. */
	__asm__ volatile("" : : "r"(stamps) : "memory");
out:
	free(stamps);
	free((void *)send);
	free((void *)recv);
	return rc;
}

int64_t jperf_stub_c_call_loop(int64_t (*fn)(int64_t), int64_t n, int64_t x)
{
	for (int64_t i = 0; i < n; i++)
		x = fn(x);
	return x;
}
