package io.jperf.report;

import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import java.math.BigDecimal;
import java.util.List;

/**
 * Results as CSV (RFC 4180, {@code \n} line ends): a header row, then one row per message size; jperf's
 * command line opens its files with a {@link #comment} line. Numbers
 * are plain decimals at full precision, so the file re-computes exactly what the table shows. Stateless
 * and thread-safe.
 */
public final class CsvReport {
    private CsvReport() {
    }

    /** The bandwidth header row; the bandwidth columns name their unit. */
    public static String bandwidthHeader(BandwidthResult.Unit unit) {
        String u = unit == BandwidthResult.Unit.MIB_PER_SEC ? "mib_per_sec" : "gbit_per_sec";
        return "size_bytes,iterations,bw_peak_" + u + ",bw_average_" + u + ",msg_rate_mpps\n";
    }

    public static String bandwidthRow(BandwidthResult r) {
        return r.sizeBytes() + "," + r.iterations() + "," + num(r.peak()) + "," + num(r.average()) + ","
                + num(r.messageRateMpps()) + "\n";
    }

    /** Header and rows of a bandwidth run (results in one unit). */
    public static String bandwidth(List<BandwidthResult> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no bandwidth results to write");
        }
        StringBuilder sb = new StringBuilder(bandwidthHeader(results.getFirst().unit()));
        for (BandwidthResult r : results) {
            if (r.unit() != results.getFirst().unit()) {
                throw new IllegalArgumentException("results mix " + r.unit() + " and " + results.getFirst().unit());
            }
            sb.append(bandwidthRow(r));
        }
        return sb.toString();
    }

    public static String latencyHeader() {
        return "size_bytes,iterations,t_min_us,t_max_us,t_typical_us,t_avg_us,t_stdev_us,p99_us,p99_9_us\n";
    }

    public static String latencyRow(LatencyResult r) {
        return r.sizeBytes() + "," + r.iterations() + "," + num(r.minUs()) + "," + num(r.maxUs()) + ","
                + num(r.typicalUs()) + "," + num(r.avgUs()) + "," + num(r.stdevUs()) + "," + num(r.p99Us()) + ","
                + num(r.p999Us()) + "\n";
    }

    /** Header and rows of a latency run. */
    public static String latency(List<LatencyResult> results) {
        StringBuilder sb = new StringBuilder(latencyHeader());
        results.forEach(r -> sb.append(latencyRow(r)));
        return sb.toString();
    }

    /**
     * The comment line that opens jperf's CSV files, naming the run: {@code # jperf 0.1.0 on HOST: COMMAND}
     * (pandas: {@code read_csv(f, comment="#")}; Python's csv module: skip lines starting with {@code #}).
     */
    public static String comment(RunInfo run) {
        return "# " + run.line().replace('\n', ' ').replace('\r', ' ') + "\n";
    }

    /** A plain decimal; an empty field for NaN and infinities. */
    private static String num(double v) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).toPlainString() : "";
    }
}
