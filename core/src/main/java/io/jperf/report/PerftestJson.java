package io.jperf.report;

import io.jperf.options.OutputMode;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Objects;

/**
 * perftest's {@code --out_json} file, key for key, so that scripts written for perftest (6.29) read jperf's:
 *
 * <pre>
 * {"test_info": {"test": "RDMA_Write_BW_Test", "Dual_port": "OFF", "Device": "rxe0", "Number_of_qps": 1,
 *                "Transport_type": "IB", "Connection_type": "RC", "Using_SRQ": "OFF", "PCIe_relax_order": "ON",
 *                "ibv_wr_API": "ON", "TX_depth": 128, "CQ_Moderation": 1, "Mtu": 1024, "Link_type": "Ethernet",
 *                "GID_index": 1, "Max_inline_data": 0, "rdma_cm_QPs": "OFF", "Use_ROCm_memory": "OFF",
 *                "Data_ex_method": "Ethernet"},
 *  "results": {"MsgSize": 65536, "n_iterations": 5000, "BW_peak": 2755.52, "BW_average": 2755.37,
 *              "MsgRate": 0.044086}}
 * </pre>
 *
 * Latency results carry {@code MsgSize n_iterations t_min t_max t_typical t_avg t_stdev percentile_99
 * percentile_99.9}, a duration ({@code -D}) latency run {@code MsgSize n_iterations t_avg tps_average};
 * {@code --output} writes only {@code bw_avg}, {@code msgRate_avg} or {@code avg_lat}, as perftest does.
 * The conditional {@code test_info} keys (TX_depth on the client or with {@code -b}, Post_List above 1,
 * CQ_Moderation for bandwidth, GID_index when a GID is used, TOS with {@code -R}) follow perftest's rules,
 * and numbers have perftest's decimals. Two differences, both so that the file is always valid JSON:
 * {@code --output} leaves no trailing comma, and no key is repeated. perftest rewrites the file after each
 * message size, so with {@code -a} it holds the last size; so does this one (jperf's own record,
 * {@link JsonReport}, holds every size). Stateless and thread-safe.
 */
public final class PerftestJson {
    private PerftestJson() {
    }

    /**
     * The document for the last result of a run.
     *
     * @throws IllegalArgumentException if there is no result of the run's kind
     */
    public static String of(TestOptions options, TestHeader header, List<BandwidthResult> bandwidth,
                            List<LatencyResult> latency) {
        return of(options, header, bandwidth, latency, null);
    }

    /**
     * The document for the last result of a run, with perftest's {@code --cpu_util} figure.
     *
     * @param cpuUtilPercent the bandwidth results' {@code "CPU_util"} (perftest's key, 2 decimals), or null for none
     * @throws IllegalArgumentException if there is no result of the run's kind
     */
    public static String of(TestOptions options, TestHeader header, List<BandwidthResult> bandwidth,
                            List<LatencyResult> latency, Double cpuUtilPercent) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(header, "header");
        JsonWriter w = new JsonWriter().beginObject();
        testInfo(w.name("test_info"), options, header);
        w.name("results").beginObject();
        if (options.params().kind().isBandwidth()) {
            if (bandwidth.isEmpty()) {
                throw new IllegalArgumentException("no bandwidth result to write");
            }
            bandwidth(w, options.output().outputMode(), bandwidth.getLast());
            if (cpuUtilPercent != null) {
                w.field("CPU_util", decimals(cpuUtilPercent, 2)); // perftest's REPORT_EXT_CPU_UTIL_JSON
            }
        } else if (!options.params().kind().verb().latencyIsPingPong() && options.isServer()) {
            // an ib_read_lat or ib_atomic_lat server measures nothing: its results stay empty, as perftest's
            if (!latency.isEmpty()) {
                throw new IllegalArgumentException("a " + options.params().kind().commandName()
                        + " server has no latency results");
            }
        } else {
            if (latency.isEmpty()) {
                throw new IllegalArgumentException("no latency result to write");
            }
            latency(w, options, latency.getLast());
        }
        return w.endObject().endObject().toJson();
    }

    /**
     * perftest's test name: its title with underscores, {@code RDMA_Write_[Bidirectional_][Post_List_]BW_Test},
     * {@code RDMA_Read_Latency_Test}, ...
     */
    static String testName(TestHeader h) {
        String verb = h.operation().replace(' ', '_');
        if (!h.kind().isBandwidth()) {
            return verb + "_Latency_Test";
        }
        return verb + "_" + (h.bidirectional() ? "Bidirectional_" : "") + (h.postList() > 1 ? "Post_List_" : "")
                + "BW_Test";
    }

    private static void testInfo(JsonWriter w, TestOptions o, TestHeader h) {
        w.beginObject()
                .field("test", testName(h))
                .field("Dual_port", "OFF")
                .field("Device", h.device())
                .field("Number_of_qps", h.numQps())
                .field("Transport_type", h.transport())
                .field("Connection_type", h.connection().name())
                .field("Using_SRQ", onOff(h.usingSrq()))
                .field("PCIe_relax_order", h.pcieRelaxedOrdering())
                .field("ibv_wr_API", onOff(h.wrApi()));
        if (!h.server() || h.bidirectional()) {
            w.field("TX_depth", h.txDepth());
        }
        if (h.postList() > 1) {
            w.field("Post_List", h.postList());
        }
        if (h.showsRxDepth()) {
            w.field("RX_depth", h.rxDepth());
        }
        if (h.kind().isBandwidth()) {
            w.field("CQ_Moderation", h.cqModeration());
        }
        w.field("Mtu", h.mtuBytes()).field("Link_type", h.linkType().label());
        if (h.gidIndex() >= 0) {
            w.field("GID_index", h.gidIndex());
        }
        if (h.kind().verb().usesOutstandingReads()) {
            w.field("Outstand_reads", h.outstandingReads());
        } else {
            w.field("Max_inline_data", h.maxInlineBytes());
        }
        w.field("rdma_cm_QPs", onOff(h.rdmaCm()))
                .field("Use_ROCm_memory", "OFF")
                .field("Data_ex_method", h.dataExchangeMethod());
        if (h.rdmaCm() && h.tos() != null) {
            w.field("TOS", h.tos());
        }
        w.endObject();
    }

    private static void bandwidth(JsonWriter w, OutputMode mode, BandwidthResult r) {
        switch (mode) {
            case BANDWIDTH -> w.field("bw_avg", decimals(r.average(), 6));
            case MESSAGE_RATE -> w.field("msgRate_avg", decimals(r.messageRateMpps(), 6));
            default -> {
                // perftest prints 6 decimals when the average is below 0.1 Gb/s, else 2
                int bwDecimals = r.unit() == BandwidthResult.Unit.GBIT_PER_SEC && r.average() < 0.1 ? 6 : 2;
                w.field("MsgSize", r.sizeBytes())
                        .field("n_iterations", r.iterations())
                        .field("BW_peak", decimals(r.peak(), bwDecimals))
                        .field("BW_average", decimals(r.average(), bwDecimals))
                        .field("MsgRate", decimals(r.messageRateMpps(), 6));
            }
        }
    }

    private static void latency(JsonWriter w, TestOptions o, LatencyResult r) {
        if (o.isDuration()) {
            // perftest's duration report: the mean half round trip and round trips per second
            double tps = r.avgUs() > 0 ? 1e6 / (2 * r.avgUs()) : 0;
            if (o.output().outputMode() == OutputMode.LATENCY) {
                w.field("t_avg", decimals(r.avgUs(), 6));
                return;
            }
            w.field("MsgSize", r.sizeBytes())
                    .field("n_iterations", r.iterations())
                    .field("t_avg", decimals(r.avgUs(), 2))
                    .field("tps_average", decimals(tps, 2));
            return;
        }
        if (o.output().outputMode() == OutputMode.LATENCY) {
            w.field("avg_lat", decimals(r.avgUs(), 6));
            return;
        }
        w.field("MsgSize", r.sizeBytes())
                .field("n_iterations", r.iterations())
                .field("t_min", decimals(r.minUs(), 2))
                .field("t_max", decimals(r.maxUs(), 2))
                .field("t_typical", decimals(r.typicalUs(), 2))
                .field("t_avg", decimals(r.avgUs(), 2))
                .field("t_stdev", decimals(r.stdevUs(), 2))
                .field("percentile_99", decimals(r.p99Us(), 2))
                .field("percentile_99.9", decimals(r.p999Us(), 2));
    }

    private static String onOff(boolean on) {
        return on ? "ON" : "OFF";
    }

    /** {@code v} rounded half-up to {@code places}, as C's {@code %.Nf} prints it; NaN stays NaN (written null). */
    private static double decimals(double v, int places) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_UP).doubleValue() : v;
    }
}
