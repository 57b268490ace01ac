package io.jperf.verbs;

import io.jperf.ffi.generated.ibv_qp_cap;

import java.lang.foreign.MemorySegment;

/**
 * Queue sizes of a QP ({@code struct ibv_qp_cap}). On creation the driver may round them up;
 * {@link QueuePair#capabilities()} returns what it granted.
 */
public record QpCapabilities(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    public QpCapabilities {
        if (maxSendWr < 1 || maxRecvWr < 0 || maxSendSge < 1 || maxRecvSge < 0 || maxInlineData < 0) {
            throw new IllegalArgumentException("invalid QP capabilities " + this);
        }
    }

    /** Writes these sizes into a {@code struct ibv_qp_cap}. */
    public void writeTo(MemorySegment cap) {
        ibv_qp_cap.max_send_wr(cap, maxSendWr);
        ibv_qp_cap.max_recv_wr(cap, maxRecvWr);
        ibv_qp_cap.max_send_sge(cap, maxSendSge);
        ibv_qp_cap.max_recv_sge(cap, maxRecvSge);
        ibv_qp_cap.max_inline_data(cap, maxInlineData);
    }

    /** The sizes in a {@code struct ibv_qp_cap}, e.g. what the driver granted after creating a QP. */
    public static QpCapabilities readFrom(MemorySegment cap) {
        return new QpCapabilities(ibv_qp_cap.max_send_wr(cap), ibv_qp_cap.max_recv_wr(cap),
                ibv_qp_cap.max_send_sge(cap), ibv_qp_cap.max_recv_sge(cap), ibv_qp_cap.max_inline_data(cap));
    }
}
