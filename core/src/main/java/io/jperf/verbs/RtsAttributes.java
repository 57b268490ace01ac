package io.jperf.verbs;

/**
 * What moving a QP to Ready To Send needs: our starting PSN and, for RC, the ACK timeout
 * exponent ({@code -u}), retry counts and outstanding RDMA reads.
 */
public record RtsAttributes(int localPsn, int timeout, int retryCount, int rnrRetry, int maxRdAtomic) {
    public RtsAttributes {
        if (timeout < 0 || timeout > 31) {
            throw new IllegalArgumentException("QP timeout must be 0..31, not " + timeout);
        }
        if (retryCount < 0 || retryCount > 7 || rnrRetry < 0 || rnrRetry > 7) {
            throw new IllegalArgumentException("retry counts must be 0..7");
        }
    }
}
