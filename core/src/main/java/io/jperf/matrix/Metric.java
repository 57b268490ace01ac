package io.jperf.matrix;

/** What one matrix point measures, and which way is better. */
public enum Metric {
    /** write-bw: the average bandwidth at the largest size, in Gb/s; higher is better. */
    BANDWIDTH_GBPS("Gb/s", true),
    /** write-lat: t_typical at the smallest size, in microseconds; lower is better. */
    LATENCY_US("us", false);

    private final String unit;
    private final boolean higherIsBetter;

    Metric(String unit, boolean higherIsBetter) {
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }

    public String unit() {
        return unit;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }
}
