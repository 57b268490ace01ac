package io.jperf.result;

import io.jperf.options.AtomicType;
import io.jperf.options.Connection;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import java.util.Objects;

/**
 * The facts perftest prints in the header block before a test, resolved against the device (effective
 * MTU, link type, chosen GID index, inline size). Immutable.
 *
 * @param kind bandwidth or latency
 * @param bidirectional {@code -b}
 * @param postList {@code -l}
 * @param server whether this side is the server
 * @param device device name
 * @param numQps number of QPs
 * @param transport transport type, {@code "IB"} for IB and RoCE
 * @param connection RC or UC
 * @param usingSrq whether an SRQ is used (always false for RDMA WRITE tests)
 * @param pcieRelaxedOrdering perftest 6.06's "PCIe relax order" value: {@code "ON"}, {@code "OFF"} or
 *     {@code "Unsupported"}
 * @param wrApi whether the {@code ibv_wr_*} post API is used
 * @param txDepth send queue depth (printed on the client and in bidirectional tests)
 * @param cqModeration effective CQ moderation (printed for bandwidth tests)
 * @param mtuBytes the path MTU agreed with the peer
 * @param linkType IB or Ethernet
 * @param gidIndex GID index in use, or -1 (then not printed)
 * @param maxInlineBytes the inline size in use
 * @param rdmaCm whether test QPs are connected with rdma_cm ({@code -R}); the data exchange method is then
 *     rdma_cm instead of Ethernet
 * @param tos the rdma_cm TOS, or null when not set
 * @param outstandingReads the outstanding RDMA READs per QP (perftest prints them instead of the inline size
 *     for READ)
 * @param rxDepth the receive work requests kept posted per QP (send tests; perftest prints them on the
 *     receiving end), 0 for verbs without receives
 * @param atomicType the operation of an atomic test (perftest names it in the title), null for the other verbs
 */
public record TestHeader(TestKind kind, boolean bidirectional, int postList, boolean server, String device,
                         int numQps, String transport, Connection connection, boolean usingSrq,
                         String pcieRelaxedOrdering, boolean wrApi, int txDepth, int cqModeration,
                         int mtuBytes, LinkType linkType, int gidIndex, int maxInlineBytes, boolean rdmaCm,
                         Integer tos, int outstandingReads, int rxDepth, AtomicType atomicType) {

    public TestHeader {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(pcieRelaxedOrdering, "pcieRelaxedOrdering");
        Objects.requireNonNull(linkType, "linkType");
    }

    /** A header of a verb without outstanding reads (1). */
    public TestHeader(TestKind kind, boolean bidirectional, int postList, boolean server, String device,
                      int numQps, String transport, Connection connection, boolean usingSrq,
                      String pcieRelaxedOrdering, boolean wrApi, int txDepth, int cqModeration,
                      int mtuBytes, LinkType linkType, int gidIndex, int maxInlineBytes, boolean rdmaCm,
                      Integer tos) {
        this(kind, bidirectional, postList, server, device, numQps, transport, connection, usingSrq,
                pcieRelaxedOrdering, wrApi, txDepth, cqModeration, mtuBytes, linkType, gidIndex, maxInlineBytes,
                rdmaCm, tos, 1, 0, null);
    }

    /**
     * The header for {@code options} once the device facts are known: transport IB, no SRQ.
     *
     * @param device the device actually opened
     * @param mtuBytes the MTU agreed with the peer
     * @param gidIndex the GID index actually used (-1 for none)
     * @param maxInlineBytes the inline size actually used
     * @param pcieRelaxedOrdering {@code "ON"}, {@code "OFF"} or {@code "Unsupported"}
     * @param wrApi whether the {@code ibv_wr_*} API posts the work requests
     */
    public static TestHeader of(TestOptions options, String device, int mtuBytes, LinkType linkType, int gidIndex,
                                int maxInlineBytes, String pcieRelaxedOrdering, boolean wrApi) {
        return of(options, device, mtuBytes, linkType, gidIndex, maxInlineBytes, pcieRelaxedOrdering, wrApi, 1);
    }

    /** As {@link #of(TestOptions, String, int, LinkType, int, int, String, boolean)}, with the READs in flight. */
    public static TestHeader of(TestOptions options, String device, int mtuBytes, LinkType linkType, int gidIndex,
                                int maxInlineBytes, String pcieRelaxedOrdering, boolean wrApi, int outstandingReads) {
        TestParameters p = options.params();
        return new TestHeader(p.kind(), p.bidirectional(), p.postList(), options.isServer(), device, p.numQps(), "IB",
                p.connection(), false, pcieRelaxedOrdering, wrApi, p.txDepth(), p.cqModeration(), mtuBytes, linkType,
                gidIndex, maxInlineBytes, p.rdmaCm(), p.tos(), outstandingReads, p.rxDepth(), p.atomicType());
    }

    /** Whether perftest prints the {@code RX depth} line: a receiving verb, on the server or with {@code -b}. */
    public boolean showsRxDepth() {
        return kind.verb().usesReceives() && (server || bidirectional);
    }

    /**
     * The operation as perftest's title names it: the verb's word ({@code RDMA_Write}), and for atomics the
     * operation after it ({@code Atomic FETCH_AND_ADD}).
     */
    public String operation() {
        String verb = kind.verb().perftestTitle();
        return atomicType == null ? verb : verb + " " + atomicType.name();
    }

    /** perftest's title, e.g. {@code RDMA_Write Bidirectional BW Test}, {@code Atomic CMP_AND_SWAP Latency Test}. */
    public String title() {
        String verb = operation();
        if (!kind.isBandwidth()) {
            return verb + " Latency Test";
        }
        return verb + " " + (bidirectional ? "Bidirectional " : "") + (postList > 1 ? "Post List " : "")
                + "BW Test";
    }

    /** perftest's data exchange method: {@code rdma_cm} with {@code -R}, else {@code Ethernet}. */
    public String dataExchangeMethod() {
        return rdmaCm ? "rdma_cm" : "Ethernet";
    }
}
