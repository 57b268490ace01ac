package io.jperf.path;

/**
 * The two ECN bits of the IP TOS / traffic class byte (RFC 3168). Only ECT(0) and ECT(1) let a
 * switch mark congestion (CE) instead of dropping or pausing, which DCQCN needs.
 */
public enum Ecn {
    /** 00: the sender does not do ECN; switches cannot mark. */
    NOT_ECT("Not-ECT"),
    /** 01. */
    ECT_1("ECT(1)"),
    /** 10: the usual RoCE choice. */
    ECT_0("ECT(0)"),
    /** 11: congestion experienced (set by switches, not by senders). */
    CE("CE");

    private final String label;

    Ecn(String label) {
        this.label = label;
    }

    /** @return the RFC 3168 name, e.g. {@code "ECT(0)"} */
    public String label() {
        return label;
    }

    /** @return the codepoint for the low two bits of {@code tos} */
    public static Ecn of(int tos) {
        return values()[tos & 3];
    }

    /** @return {@code true} for ECT(0), ECT(1) and CE */
    public boolean capable() {
        return this != NOT_ECT;
    }
}
