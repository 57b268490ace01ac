/*
 * jperf bench: a fake verbs provider in C, for measuring the data path without a device.
 *
 * jperf_stub_create() builds a fake struct ibv_context whose ops.post_send / ops.post_recv /
 * ops.poll_cq / ops.req_notify_cq are the C functions of stub_provider.c, plus a fake
 * struct ibv_qp and struct ibv_cq whose context points at it. The "device" is always ready:
 * every SIGNALED send work request (the whole ->next chain is walked) immediately queues one
 * successful IBV_WC_RDMA_WRITE completion carrying its wr_id and the byte count of its SGEs
 * in the CQ ring; poll_cq drains up to num_entries of them in FIFO order. Unsignaled work
 * requests are accepted and produce no completion, as on hardware.
 *
 * The ops are plain C (never Java upcalls), so jperf's critical downcall handles
 * (io.jperf.ffi.InlineVerbs) can call them.
 *
 * Not thread-safe: one stub is driven by one thread at a time (like jperf's QP/CQ confinement).
 */
#ifndef JPERF_STUB_PROVIDER_H
#define JPERF_STUB_PROVIDER_H

#include <stdint.h>
#include <infiniband/verbs.h>

struct jperf_stub;

/* Counters, read with jperf_stub_counter(stub, JPERF_STUB_...). */
enum jperf_stub_counter_id {
	JPERF_STUB_POST_SEND_CALLS = 0,   /* ops.post_send calls (one per list) */
	JPERF_STUB_POSTED_WRS = 1,        /* send WRs accepted (each WR of each list) */
	JPERF_STUB_SIGNALED_WRS = 2,      /* accepted send WRs with IBV_SEND_SIGNALED */
	JPERF_STUB_COMPLETIONS = 3,       /* completions generated (queued in the CQ ring) */
	JPERF_STUB_POLLED = 4,            /* completions returned by poll_cq */
	JPERF_STUB_POLL_CQ_CALLS = 5,     /* ops.poll_cq calls, including empty polls */
	JPERF_STUB_REJECTED_WRS = 6,      /* send WRs refused with ENOMEM because the CQ ring was full */
	JPERF_STUB_POSTED_RECVS = 7,      /* receive WRs accepted by ops.post_recv */
	JPERF_STUB_NOTIFY_CALLS = 8,      /* ops.req_notify_cq calls */
	JPERF_STUB_DELIVERED_SENDS = 9,   /* SENDs delivered to a posted receive (with delivery on) */
	JPERF_STUB_RNR = 10,              /* SENDs refused with EAGAIN: no receive was posted (delivery on) */
	JPERF_STUB_COUNTER_COUNT = 11
};

/* A stub whose CQ holds cq_depth completions (1 .. 2^24). NULL on bad depth or out of memory. */
struct jperf_stub *jperf_stub_create(int cq_depth);
void jperf_stub_destroy(struct jperf_stub *stub);

struct ibv_context *jperf_stub_context(struct jperf_stub *stub);
struct ibv_qp *jperf_stub_qp(struct jperf_stub *stub);
struct ibv_cq *jperf_stub_cq(struct jperf_stub *stub);

/* A counter value, or UINT64_MAX for an unknown id. */
uint64_t jperf_stub_counter(const struct jperf_stub *stub, int id);
/* Completions queued and not yet polled. */
int jperf_stub_cq_pending(const struct jperf_stub *stub);
/* Zeroes the counters and empties the CQ ring (queued receives stay queued). */
void jperf_stub_reset(struct jperf_stub *stub);

/*
 * When on, post_send also performs each RDMA WRITE: copies the WR's SGEs to wr.rdma.remote_addr
 * (which must then be valid memory of this process), so a QP "writes to itself". Off by
 * default (the bandwidth loops post to dummy addresses). Used by the latency loops, whose
 * ping-pong waits for the written bytes to arrive.
 */
void jperf_stub_set_execute_writes(struct jperf_stub *stub, int on);

/*
 * When on, post_send also performs each atomic (IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_ATOMIC_CMP_AND_SWP)
 * on the 64-bit word at wr.atomic.remote_addr (live memory of this process): fetch-and-add adds
 * compare_add, compare-and-swap writes swap when the word equals compare_add, and the word's original
 * value is stored at the SGE's address. Their completions carry IBV_WC_FETCH_ADD / IBV_WC_COMP_SWAP.
 * A misaligned remote address or an SGE other than 8 bytes is not performed: it completes (signaled
 * or not) with IBV_WC_REM_INV_REQ_ERR. Off by default.
 */
void jperf_stub_set_execute_atomics(struct jperf_stub *stub, int on);

/*
 * When on, the QP is connected to itself for two-sided traffic: post_recv queues each receive WR
 * (FIFO, up to 65536 outstanding; ENOMEM beyond), and post_send delivers each IBV_WR_SEND to the
 * oldest queued receive: copies the SGEs to the receive's SGE (truncated to its length) and
 * queues an IBV_WC_RECV completion with the receive's wr_id and the byte count. A SEND with no
 * receive queued is refused with EAGAIN (the stub's stand-in for an RNR NAK). Off by default.
 */
void jperf_stub_set_deliver_sends(struct jperf_stub *stub, int on);

/* Receives queued and not yet consumed by a delivered SEND. */
int jperf_stub_recv_pending(const struct jperf_stub *stub);

/* A trivial exported function, for measuring the bare cost of a downcall. */
int64_t jperf_stub_noop(int64_t x);

/*
 * C's cost of an indirect call, for comparison with a downcall: n calls of fn, each on the result
 * of the one before (none can be skipped); returns the last result. In stub_c_loop.c.
 */
int64_t jperf_stub_c_call_loop(int64_t (*fn)(int64_t), int64_t n, int64_t x);

/*
 * The C baseline: the perftest write_bw post/poll loop, run natively against the stub through
 * the same function pointers (ibv_post_send / ibv_poll_cq from verbs.h, i.e.
 * qp->context->ops.post_send / cq->context->ops.poll_cq).
 *
 *   iterations  work requests to post and complete; a multiple of post_list and of the
 *               effective CQ moderation
 *   post_list   work requests chained per post_send (perftest -l)
 *   cq_mod      with post_list == 1, every cq_mod-th WR is signaled (perftest -Q); with
 *               post_list > 1 the last WR of each list is signaled and the moderation is the
 *               post list (perftest's default for -l without -Q)
 *   tx_depth    maximum outstanding WRs (perftest -t); >= post_list
 *   size        bytes per write (the SGE length)
 *
 * Returns the elapsed nanoseconds (CLOCK_MONOTONIC) of the loop, or a negative value on error:
 * -1 bad arguments, -2 post_send failed, -3 poll_cq failed, -4 a completion had a bad status,
 * -5 out of memory.
 */
int64_t jperf_stub_c_loop(struct jperf_stub *stub, int64_t iterations, int post_list, int cq_mod,
			  int tx_depth, int size);

/*
 * jperf_stub_c_loop with perftest's own per-request bookkeeping (per-QP counters in memory, two
 * moderation tests per post, wr_id as the QP index read back from each completion and credited to
 * its QP). Same parameters, WRs and result. In stub_c_loop.c.
 */
int64_t jperf_stub_c_perftest_loop(struct jperf_stub *stub, int64_t iterations, int post_list, int cq_mod,
				   int tx_depth, int size);

/*
 * The C baseline of the write-latency step: perftest's run_iter_lat_write as the server side
 * (sends first), against the stub with writes executed into its own receive buffer, so each
 * "peer reply" is our own write looping back and every wait is satisfied at once. Per round:
 * wait for the receive buffer's last byte to show the next counter, take a timestamp, store our
 * counter in the send buffer's last byte, post one signaled RDMA WRITE of size bytes, poll its
 * completion. Buffers and the timestamp array are allocated before the clock starts. Turns
 * jperf_stub_set_execute_writes on (and leaves it on).
 *
 * Returns the elapsed nanoseconds (CLOCK_MONOTONIC) of iterations rounds, or a negative value:
 * -1 bad arguments, -2 post_send failed, -3 poll_cq failed, -4 bad completion status,
 * -5 out of memory, -6 the looped-back write never arrived.
 */
int64_t jperf_stub_c_lat_loop(struct jperf_stub *stub, int64_t iterations, int size);

#endif
