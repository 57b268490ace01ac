/*
 * Minimal fake provider ops for InlineVerbsTest: native functions with the ibv_context_ops
 * signatures that record their arguments and return known values. InlineVerbs calls through
 * critical downcall handles, which cannot re-enter Java, so the fake must be C, not an upcall.
 * Compiled by the test into target/native-test/libfakeverbsops.so.
 */
#include <infiniband/verbs.h>

void *fake_arg_ptr0;
void *fake_arg_ptr1;
void *fake_arg_ptr2;
int fake_arg_int;
int fake_calls;

static void record(void *p0, void *p1, void *p2, int i)
{
	fake_arg_ptr0 = p0;
	fake_arg_ptr1 = p1;
	fake_arg_ptr2 = p2;
	fake_arg_int = i;
	fake_calls++;
}

/* Writes three completions with wr_id 100, 101, 102 and returns 3. */
int fake_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	record(cq, wc, 0, num_entries);
	for (int i = 0; i < 3 && i < num_entries; i++) {
		wc[i].wr_id = 100 + i;
		wc[i].status = IBV_WC_SUCCESS;
		wc[i].opcode = IBV_WC_RDMA_WRITE;
	}
	return num_entries < 3 ? num_entries : 3;
}

/* Reports the first request as bad and returns ENOMEM (12), like a full send queue. */
int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	record(qp, wr, bad_wr, 0);
	*bad_wr = wr;
	return 12;
}

int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	record(qp, wr, bad_wr, 0);
	*bad_wr = 0;
	return 0;
}

int fake_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	record(cq, 0, 0, solicited_only);
	return 40 + solicited_only;
}
