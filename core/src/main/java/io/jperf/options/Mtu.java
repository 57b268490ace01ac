package io.jperf.options;

/**
 * The IB path MTUs perftest accepts for {@code -m}, with the {@code enum ibv_mtu} value (1..5) that the
 * control protocol exchanges.
 */
public enum Mtu {
    MTU_256(256, 1),
    MTU_512(512, 2),
    MTU_1024(1024, 3),
    MTU_2048(2048, 4),
    MTU_4096(4096, 5);

    private final int bytes;
    private final int ibvEnum;

    Mtu(int bytes, int ibvEnum) {
        this.bytes = bytes;
        this.ibvEnum = ibvEnum;
    }

    /** The MTU in bytes, as printed in perftest's header ({@code Mtu : 4096[B]}). */
    public int bytes() {
        return bytes;
    }

    /** The {@code enum ibv_mtu} value: 1 for 256 up to 5 for 4096. */
    public int ibvEnum() {
        return ibvEnum;
    }

    /**
     * @throws OptionsException unless {@code bytes} is one of 256, 512, 1024, 2048, 4096
     */
    public static Mtu fromBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new OptionsException("-m/--mtu: " + bytes + " is not an IB MTU; use 256, 512, 1024, 2048 or 4096");
    }

    /**
     * @throws IllegalArgumentException unless {@code ibvEnum} is 1..5
     */
    public static Mtu fromIbvEnum(int ibvEnum) {
        for (Mtu m : values()) {
            if (m.ibvEnum == ibvEnum) {
                return m;
            }
        }
        throw new IllegalArgumentException("ibv_mtu value " + ibvEnum + " is outside 1 (256) .. 5 (4096)");
    }
}
