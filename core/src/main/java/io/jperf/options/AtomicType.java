package io.jperf.options;

import java.util.Locale;

/**
 * The operation of an atomic test ({@code -A/--atomic_type}, perftest's {@code atomicType}): what each work
 * request does to the 64-bit word at the responder. perftest's operands are fixed: fetch-and-add adds 1,
 * compare-and-swap compares with 0 and swaps in 0. Immutable.
 */
public enum AtomicType {
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}: if the word equals the compare value, write the swap value. */
    CMP_AND_SWAP(0),
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: add the operand to the word (perftest's default). */
    FETCH_AND_ADD(1);

    private final int perftestCode;

    AtomicType(int perftestCode) {
        this.perftestCode = perftestCode;
    }

    /** perftest's {@code AtomicType} value (its parameter negotiation sends it): CMP_AND_SWAP 0, FETCH_AND_ADD 1. */
    public int perftestCode() {
        return perftestCode;
    }

    /**
     * The type {@code -A} names: {@code CMP_AND_SWAP} or {@code FETCH_AND_ADD} (perftest's spellings; case is
     * ignored).
     *
     * @throws OptionsException for any other text
     */
    public static AtomicType parse(String text) {
        String t = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
        for (AtomicType a : values()) {
            if (a.name().equals(t)) {
                return a;
            }
        }
        throw new OptionsException("-A/--atomic_type: '" + text + "' is not an atomic type; use CMP_AND_SWAP or"
                + " FETCH_AND_ADD");
    }
}
