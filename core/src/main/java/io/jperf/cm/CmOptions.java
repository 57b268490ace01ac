package io.jperf.cm;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How the CM resolves and connects. {@link #perftest()} gives perftest's values: address and
 * route resolution 2 s per try, up to 10 tries; responder resources and initiator depth 1;
 * retry count 7, RNR retry 7; no TOS; no private data. Immutable.
 *
 * @param resolveTimeout     the timeout of one {@code rdma_resolve_addr}/{@code rdma_resolve_route} try
 * @param resolveTries       how many tries of each before giving up (at least 1)
 * @param tos                the IP TOS byte (DSCP &lt;&lt; 2 | ECN) set with {@code RDMA_OPTION_ID_TOS}
 *                           before route resolution; empty leaves the kernel default
 * @param responderResources {@code rdma_conn_param.responder_resources} (RDMA READ/atomic depth we serve)
 * @param initiatorDepth     {@code rdma_conn_param.initiator_depth} (outstanding READ/atomic we issue)
 * @param retryCount         transport retries (client only; 0..7)
 * @param rnrRetryCount      receiver-not-ready retries (0..7, 7 = infinite)
 * @param privateData        bytes sent with the connect request (client, at most 56 on IB/RoCE) or
 *                           the accept (server, at most 196); may be empty
 */
public record CmOptions(Duration resolveTimeout, int resolveTries, OptionalInt tos, int responderResources,
                        int initiatorDepth, int retryCount, int rnrRetryCount, byte[] privateData) {

    /** Largest private data of a connect request on IB/RoCE (the REQ's field minus the CM header). */
    public static final int MAX_CONNECT_PRIVATE_DATA = 56;
    /** Largest private data of an accept on IB/RoCE. */
    public static final int MAX_ACCEPT_PRIVATE_DATA = 196;

    public CmOptions {
        Objects.requireNonNull(resolveTimeout, "resolveTimeout");
        Objects.requireNonNull(tos, "tos");
        if (resolveTimeout.isNegative() || resolveTimeout.isZero() || resolveTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("resolveTimeout must be > 0 ms, not " + resolveTimeout);
        }
        if (resolveTries < 1) {
            throw new IllegalArgumentException("resolveTries must be >= 1, not " + resolveTries);
        }
        if (tos.isPresent() && (tos.getAsInt() < 0 || tos.getAsInt() > 255)) {
            throw new IllegalArgumentException("tos is a byte (0..255), not " + tos.getAsInt());
        }
        checkByte("responderResources", responderResources, 255);
        checkByte("initiatorDepth", initiatorDepth, 255);
        checkByte("retryCount", retryCount, 7);
        checkByte("rnrRetryCount", rnrRetryCount, 7);
        privateData = privateData == null ? new byte[0] : privateData.clone();
        if (privateData.length > MAX_ACCEPT_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data of " + privateData.length + " bytes is above the "
                    + MAX_ACCEPT_PRIVATE_DATA + " an accept can carry (" + MAX_CONNECT_PRIVATE_DATA + " for a connect)");
        }
    }

    private static void checkByte(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be 0.." + max + ", not " + value);
        }
    }

    /** perftest's values (see the class comment). */
    public static CmOptions perftest() {
        return new CmOptions(Duration.ofSeconds(2), 10, OptionalInt.empty(), 1, 1, 7, 7, new byte[0]);
    }

    /** A copy with {@code tos} (null for none). */
    public CmOptions withTos(Integer tosOrNull) {
        return new CmOptions(resolveTimeout, resolveTries, tosOrNull == null ? OptionalInt.empty()
                : OptionalInt.of(tosOrNull), responderResources, initiatorDepth, retryCount, rnrRetryCount, privateData);
    }

    /** librdmacm's "as many as the device allows" for responder resources and initiator depth. */
    public static final int DEVICE_MAXIMUM = 0xff;

    /**
     * A copy whose responder resources and initiator depth are {@code reads} (RDMA READ and atomic tests;
     * {@link #DEVICE_MAXIMUM} lets librdmacm take the device's maximum).
     */
    public CmOptions withOutstandingReads(int reads) {
        return new CmOptions(resolveTimeout, resolveTries, tos, reads, reads, retryCount, rnrRetryCount, privateData);
    }

    /** A copy with another per-try resolution timeout and number of tries. */
    public CmOptions withResolve(Duration timeout, int tries) {
        return new CmOptions(timeout, tries, tos, responderResources, initiatorDepth, retryCount, rnrRetryCount,
                privateData);
    }

    /** A copy with {@code data} as private data. */
    public CmOptions withPrivateData(byte[] data) {
        return new CmOptions(resolveTimeout, resolveTries, tos, responderResources, initiatorDepth, retryCount,
                rnrRetryCount, data);
    }

    /** @return a copy of the private data */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }
}
