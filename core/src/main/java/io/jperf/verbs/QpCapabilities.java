package io.jperf.verbs;

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
}
