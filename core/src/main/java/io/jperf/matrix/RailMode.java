package io.jperf.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Which rails of a host pair are tested against each other. Stateless. */
public enum RailMode {
    /** Rail {@code r} of one host with rail {@code r} of the other: R tests per pair. */
    PER_RAIL,
    /** Every device of one host with every device of the other: R x R tests per pair. */
    DEVICE_PAIRS;

    /** The option value: {@code per-rail} or {@code device-pairs}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws IllegalArgumentException naming the choices */
    public static RailMode parse(String text) {
        for (RailMode m : values()) {
            if (m.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown rail mode '" + text + "': per-rail or device-pairs");
    }

    /** The (client rail, server rail) combinations for {@code rails} rails per host. */
    public List<int[]> combinations(int rails) {
        List<int[]> combos = new ArrayList<>();
        for (int a = 0; a < rails; a++) {
            if (this == PER_RAIL) {
                combos.add(new int[] {a, a});
                continue;
            }
            for (int b = 0; b < rails; b++) {
                combos.add(new int[] {a, b});
            }
        }
        return combos;
    }

    /** How many combinations {@link #combinations} gives. */
    public int combinationCount(int rails) {
        return this == PER_RAIL ? rails : rails * rails;
    }
}
