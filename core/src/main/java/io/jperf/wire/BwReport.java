package io.jperf.wire;

/**
 * The bandwidth figures one side sends the other after a test (perftest's {@code struct bw_report_data},
 * the fields that travel): on the wire each is one 8-byte big-endian exchange, in this order.
 *
 * @param size message size in bytes
 * @param iterations messages counted (iterations x QPs)
 * @param peak peak bandwidth in the report unit (MiB/s or Gb/s), 0 when not computed
 * @param average average bandwidth in the report unit
 * @param messageRate million messages per second
 */
public record BwReport(long size, long iterations, double peak, double average, double messageRate) {
}
