package io.jperf.verbs;

/** A path MTU, as {@code enum ibv_mtu} (1 = 256 bytes ... 5 = 4096 bytes). */
public enum Mtu {
    MTU_256(1, 256), MTU_512(2, 512), MTU_1024(3, 1024), MTU_2048(4, 2048), MTU_4096(5, 4096);

    private final int nativeValue;
    private final int bytes;

    Mtu(int nativeValue, int bytes) {
        this.nativeValue = nativeValue;
        this.bytes = bytes;
    }

    /** The {@code enum ibv_mtu} value, also what perftest sends on the wire as one ASCII digit. */
    public int nativeValue() {
        return nativeValue;
    }

    public int bytes() {
        return bytes;
    }

    public static Mtu fromNative(int value) {
        for (Mtu m : values()) {
            if (m.nativeValue == value) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown ibv_mtu " + value + " (valid: 1..5)");
    }

    public static Mtu fromBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("MTU " + bytes + " is not one of 256, 512, 1024, 2048, 4096");
    }

    public Mtu min(Mtu other) {
        return nativeValue <= other.nativeValue ? this : other;
    }
}
