package io.jperf.verbs;

/** Queue pair transport types jperf uses, as {@code enum ibv_qp_type}. */
public enum QpType {
    RC(2), UC(3), UD(4);

    private final int nativeValue;

    QpType(int nativeValue) {
        this.nativeValue = nativeValue;
    }

    public int nativeValue() {
        return nativeValue;
    }
}
