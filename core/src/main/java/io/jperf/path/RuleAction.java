package io.jperf.path;

/** A policy rule's action, as {@code FR_ACT_*} in linux/fib_rules.h. */
public enum RuleAction {
    UNSPEC(0, "unspec"), TO_TABLE(1, "lookup"), GOTO(2, "goto"), NOP(3, "nop"),
    BLACKHOLE(6, "blackhole"), UNREACHABLE(7, "unreachable"), PROHIBIT(8, "prohibit"),
    /** A value this enum does not know. */
    OTHER(-1, "action?");

    private final int nativeValue;
    private final String label;

    RuleAction(int nativeValue, String label) {
        this.nativeValue = nativeValue;
        this.label = label;
    }

    /** @return the word {@code ip rule} prints, e.g. {@code "lookup"} */
    public String label() {
        return label;
    }

    static RuleAction fromNative(int value) {
        for (RuleAction a : values()) {
            if (a.nativeValue == value) {
                return a;
            }
        }
        return OTHER;
    }
}
