package io.jperf.path;

/**
 * The RoCE traffic class / IP TOS byte a test uses ({@code --tclass}, {@code -T}): DSCP in the
 * high six bits picks the switch queue, ECN in the low two says whether switches may mark.
 * Immutable.
 *
 * @param value the byte, 0..255
 */
public record TrafficClass(int value) {

    public TrafficClass {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("traffic class " + value + " is not a byte (0..255)");
        }
    }

    /** @return {@code value >> 2}, 0..63 */
    public int dscp() {
        return value >> 2;
    }

    /** @return the ECN codepoint, {@code value & 3} */
    public Ecn ecn() {
        return Ecn.of(value);
    }

    /** {@code 106 (DSCP 26, ECT(0))}. */
    @Override
    public String toString() {
        return value + " (DSCP " + dscp() + ", " + ecn().label() + ")";
    }
}
