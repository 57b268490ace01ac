package io.jperf.verbs;

/** The type of a GID table entry, as {@code enum ibv_gid_type}. */
public enum GidType {
    IB("IB"),
    ROCE_V1("RoCE v1"),
    ROCE_V2("RoCE v2");

    private final String label;

    GidType(String label) {
        this.label = label;
    }

    /** The name rdma-core and sysfs use, e.g. {@code "RoCE v2"}. */
    public String label() {
        return label;
    }

    static GidType fromNative(int value) {
        return switch (value) {
            case 0 -> IB;
            case 1 -> ROCE_V1;
            case 2 -> ROCE_V2;
            default -> throw new IllegalArgumentException("unknown ibv_gid_type " + value);
        };
    }
}
