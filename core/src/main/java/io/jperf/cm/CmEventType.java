package io.jperf.cm;

/**
 * {@code enum rdma_cm_event_type}. The numbers are librdmacm's ABI (stable since 2006); a native
 * test checks them against the generated header constants.
 */
public enum CmEventType {
    ADDR_RESOLVED(0), ADDR_ERROR(1), ROUTE_RESOLVED(2), ROUTE_ERROR(3), CONNECT_REQUEST(4), CONNECT_RESPONSE(5),
    CONNECT_ERROR(6), UNREACHABLE(7), REJECTED(8), ESTABLISHED(9), DISCONNECTED(10), DEVICE_REMOVAL(11),
    MULTICAST_JOIN(12), MULTICAST_ERROR(13), ADDR_CHANGE(14), TIMEWAIT_EXIT(15),
    /** A value this enum does not know (a newer librdmacm). */
    OTHER(-1);

    private final int nativeValue;

    CmEventType(int nativeValue) {
        this.nativeValue = nativeValue;
    }

    /** @return the C value, -1 for {@link #OTHER} */
    public int nativeValue() {
        return nativeValue;
    }

    /** @return the C name, e.g. {@code RDMA_CM_EVENT_ADDR_ERROR}, as {@code rdma_event_str} prints it */
    public String cName() {
        return "RDMA_CM_EVENT_" + name();
    }

    /** @return the constant for a C value; {@link #OTHER} when unknown */
    public static CmEventType fromNative(int value) {
        for (CmEventType t : values()) {
            if (t.nativeValue == value) {
                return t;
            }
        }
        return OTHER;
    }

    /** @return {@code true} for the events that report a failure of the step in progress */
    public boolean isError() {
        return switch (this) {
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED, DEVICE_REMOVAL, ADDR_CHANGE,
                 MULTICAST_ERROR, DISCONNECTED -> true;
            default -> false;
        };
    }
}
