package io.jperf.cm;

import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;

import io.jperf.verbs.QueuePair;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * What one connection's QP is created with: all on the {@link CmEndpoint#context()} the
 * {@link QpSetup} was given. The CM creates the QP ({@code rdma_create_qp}) on {@code pd}.
 *
 * @param pd     the protection domain (the engine registers its buffers on it)
 * @param sendCq the send completion queue
 * @param recvCq the receive completion queue (may be the same as {@code sendCq})
 * @param caps   the QP sizes to ask for; the granted ones are in the connection's QueuePair
 * @param privateData bytes for this connection's connect request (client, at most 56) or accept
 *               (server, at most 196), e.g. the buffer address and rkey just registered; empty to
 *               send the {@link CmOptions#privateData()} of the call
 * @param prepare runs on the new QP before {@code rdma_connect} / {@code rdma_accept} (e.g. to post
 *               receives, so that the peer's first SEND finds one); the QP is then in INIT
 */
public record QpResources(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, QpCapabilities caps,
                          byte[] privateData, Consumer<QueuePair> prepare) {
    public QpResources {
        prepare = prepare == null ? qp -> { } : prepare;
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        Objects.requireNonNull(caps, "caps");
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    /** Resources without per-connection private data. */
    public QpResources(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, QpCapabilities caps) {
        this(pd, sendCq, recvCq, caps, new byte[0], null);
    }

    /** Resources with per-connection private data (client at most 56 bytes, server at most 196). */
    public QpResources(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, QpCapabilities caps,
                       byte[] privateData) {
        this(pd, sendCq, recvCq, caps, privateData, null);
    }

    /** @return a copy of the private data */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** {@code options} with this connection's private data, when it has any. */
    CmOptions applyTo(CmOptions options) {
        return privateData.length == 0 ? options : options.withPrivateData(privateData);
    }
}
