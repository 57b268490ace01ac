package io.jperf.cm;

import java.util.Objects;

/**
 * One RDMA CM event, copied out of librdmacm's {@code struct rdma_cm_event} and already acked
 * ({@code rdma_ack_cm_event}), so holding it never delays {@code rdma_destroy_id}. Immutable.
 *
 * @param type        the event type; {@link CmEventType#OTHER} keeps the raw number in {@code rawType}
 * @param rawType     the C event number
 * @param status      the event's status: 0, a negated errno (e.g. -110 for an address resolution
 *                    that timed out), or for {@link CmEventType#REJECTED} the transport's reject
 *                    reason (IB CM: 28 = consumer reject, 8 = invalid service id / no listener)
 * @param id          the {@code rdma_cm_id *} the event is for (the new id for CONNECT_REQUEST)
 * @param listenId    the listening id for CONNECT_REQUEST, 0 otherwise
 * @param privateData the connection private data carried by CONNECT_REQUEST, ESTABLISHED (active
 *                    side), REJECTED and CONNECT_RESPONSE; empty if none. On RoCE/IB the
 *                    transport delivers a fixed-size field (56 bytes in a request, 196 in a reply,
 *                    148 in a reject), so it is zero-padded after what the peer sent
 * @param responderResources for CONNECT_REQUEST: the peer's offered responder resources
 * @param initiatorDepth     for CONNECT_REQUEST: the peer's initiator depth
 */
public record CmEvent(CmEventType type, int rawType, int status, long id, long listenId, byte[] privateData,
                      int responderResources, int initiatorDepth) {

    public CmEvent {
        Objects.requireNonNull(type, "type");
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    /** An event without connection parameters, for tests and simple cases. */
    public static CmEvent of(CmEventType type, int status, long id) {
        return new CmEvent(type, type.nativeValue(), status, id, 0, new byte[0], 0, 0);
    }

    /** @return a copy of the private data */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** The id this event should be delivered to: the listener for a connect request, else the id. */
    long routingKey() {
        return type == CmEventType.CONNECT_REQUEST && listenId != 0 ? listenId : id;
    }

    /** e.g. {@code RDMA_CM_EVENT_ADDR_ERROR (status -110 ETIMEDOUT)}. */
    public String describe() {
        String name = type == CmEventType.OTHER ? "RDMA CM event " + rawType : type.cName();
        if (status == 0) {
            return name;
        }
        return name + " (status " + CmErrors.statusText(type, status) + ")";
    }

    @Override
    public String toString() {
        return describe() + " on id 0x" + Long.toHexString(id);
    }
}
