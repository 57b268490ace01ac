package io.jperf.report;

import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One valid JSON document per run (perftest rewrites an invalid, non-JSON file per message size): the test
 * parameters, the header facts, both ends' QP endpoints and one result object per message size, plus any
 * named extra sections (e.g. the path the run took), and where it came from ({@link RunInfo}). The layout is
 * described by the JSON Schema {@code io/jperf/report/jperf-result.schema.json} (a resource of this jar,
 * {@link #SCHEMA_RESOURCE}). Field names are stable snake_case; bandwidth figures
 * carry their unit. Build with {@link #builder}; the built report is immutable.
 *
 * <pre>
 * {"tool": "jperf", "format_version": 1,
 *  "run": {"jperf_version": "0.1.0", "command_line": "jperf write-bw -a 10.0.0.2", "host": "lab-a"},
 *  "test": "ib_write_bw", "parameters": {...}, "header": {...}, "local": [{...}], "remote": [{...}],
 *  "results": [{"size_bytes": 65536, "iterations": 5000, "bw_peak": ..., ...}], ...extra sections}
 * </pre>
 */
public final class JsonReport {
    /** Version of this document layout; bumped only on incompatible changes. */
    public static final int FORMAT_VERSION = 1;
    /** The class path resource holding this layout's JSON Schema (draft 2020-12). */
    public static final String SCHEMA_RESOURCE = "/io/jperf/report/jperf-result.schema.json";

    private final String json;

    private JsonReport(String json) {
        this.json = json;
    }

    /** A builder for the run described by {@code options} and {@code header}. */
    public static Builder builder(TestOptions options, TestHeader header) {
        return new Builder(options, header);
    }

    /** The document, ending in a newline. */
    public String toJson() {
        return json;
    }

    @Override
    public String toString() {
        return json;
    }

    /** Collects a run's parts. Not thread-safe. */
    public static final class Builder {
        private final TestOptions options;
        private final TestHeader header;
        private final List<EndpointInfo> local = new ArrayList<>();
        private final List<EndpointInfo> remote = new ArrayList<>();
        private final List<Object> results = new ArrayList<>();
        private final Map<String, Consumer<JsonWriter>> sections = new LinkedHashMap<>();
        private RunInfo run;

        private Builder(TestOptions options, TestHeader header) {
            this.options = Objects.requireNonNull(options, "options");
            this.header = Objects.requireNonNull(header, "header");
        }

        /** Where the run came from; default {@link RunInfo#embedded()}. */
        public Builder run(RunInfo info) {
            run = Objects.requireNonNull(info, "info");
            return this;
        }

        /** This side's QP endpoints, in QP order. */
        public Builder local(List<EndpointInfo> endpoints) {
            local.addAll(endpoints);
            return this;
        }

        /** The peer's QP endpoints, in QP order. */
        public Builder remote(List<EndpointInfo> endpoints) {
            remote.addAll(endpoints);
            return this;
        }

        /** Adds one message size's bandwidth result. */
        public Builder result(BandwidthResult r) {
            results.add(Objects.requireNonNull(r));
            return this;
        }

        /** Adds one message size's latency result. */
        public Builder result(LatencyResult r) {
            results.add(Objects.requireNonNull(r));
            return this;
        }

        /**
         * Adds a top-level section written by {@code body}, which must write exactly one value.
         *
         * @throws IllegalArgumentException if the name is one of the report's own
         */
        public Builder section(String name, Consumer<JsonWriter> body) {
            if (List.of("tool", "format_version", "run", "test", "parameters", "header", "local", "remote", "results")
                    .contains(name) || sections.containsKey(name)) {
                throw new IllegalArgumentException("JSON section '" + name + "' already exists");
            }
            sections.put(name, Objects.requireNonNull(body));
            return this;
        }

        public JsonReport build() {
            JsonWriter w = new JsonWriter().beginObject();
            w.field("tool", "jperf").field("format_version", FORMAT_VERSION);
            (run != null ? run : RunInfo.embedded()).writeJson(w.name("run"));
            w.field("test", options.params().kind().perftestName());
            writeParameters(w.name("parameters"));
            writeHeader(w.name("header"));
            writeEndpoints(w.name("local"), local);
            writeEndpoints(w.name("remote"), remote);
            w.name("results").beginArray();
            for (Object r : results) {
                switch (r) {
                    case BandwidthResult b -> writeBandwidth(w, b);
                    case LatencyResult l -> writeLatency(w, l);
                    default -> throw new IllegalStateException("unexpected result " + r);
                }
            }
            w.endArray();
            for (Map.Entry<String, Consumer<JsonWriter>> e : sections.entrySet()) {
                e.getValue().accept(w.name(e.getKey()));
            }
            return new JsonReport(w.endObject().toJson());
        }

        private void writeParameters(JsonWriter w) {
            TestOptions o = options;
            w.beginObject()
                    .field("role", o.isServer() ? "server" : "client")
                    .field("server_host", o.target().serverHost())
                    .field("port", o.target().port())
                    .field("device", o.target().device())
                    .field("ib_port", o.target().ibPort())
                    .field("connection", o.params().connection().name())
                    .field("size", o.params().size())
                    .field("all_sizes", o.params().allSizes())
                    .field("iterations", o.params().iterations())
                    .field("duration_seconds", o.params().durationSeconds())
                    .field("num_qps", o.params().numQps())
                    .field("bidirectional", o.params().bidirectional())
                    .field("tx_depth", o.params().txDepth())
                    .field("post_list", o.params().postList())
                    .field("cq_moderation", o.params().cqModeration())
                    .field("inline_size", o.params().inlineSize());
            w.name("mtu");
            if (o.params().mtu() == null) {
                w.nullValue();
            } else {
                w.value(o.params().mtu());
            }
            w.field("gid_index", o.target().gidIndex())
                    .field("service_level", o.params().serviceLevel())
                    .field("traffic_class", o.params().trafficClass())
                    .field("qp_timeout", o.params().qpTimeout())
                    .field("rdma_cm", o.params().rdmaCm());
            w.name("tos");
            if (o.params().tos() == null) {
                w.nullValue();
            } else {
                w.value(o.params().tos());
            }
            w.field("report_gbits", o.params().reportGbits())
                    .field("bind_source_ip", o.target().bindSourceIp())
                    .field("rx_depth", o.params().rxDepth());
            if (o.params().atomicType() != null) {
                w.field("atomic_type", o.params().atomicType().name());
            }
            w.endObject();
        }

        private void writeHeader(JsonWriter w) {
            TestHeader h = header;
            w.beginObject()
                    .field("title", h.title())
                    .field("device", h.device())
                    .field("num_qps", h.numQps())
                    .field("transport", h.transport())
                    .field("connection", h.connection().name())
                    .field("using_srq", h.usingSrq())
                    .field("pcie_relaxed_ordering", h.pcieRelaxedOrdering())
                    .field("wr_api", h.wrApi())
                    .field("tx_depth", h.txDepth())
                    .field("cq_moderation", h.cqModeration())
                    .field("mtu_bytes", h.mtuBytes())
                    .field("link_type", h.linkType().label())
                    .field("gid_index", h.gidIndex())
                    .field("max_inline_bytes", h.maxInlineBytes())
                    .field("rdma_cm_qps", h.rdmaCm())
                    .field("data_exchange_method", h.dataExchangeMethod())
                    .endObject();
        }

        private static void writeEndpoints(JsonWriter w, List<EndpointInfo> endpoints) {
            w.beginArray();
            for (EndpointInfo e : endpoints) {
                w.beginObject()
                        .field("lid", e.lid())
                        .field("qpn", e.qpn())
                        .field("psn", e.psn())
                        .field("rkey", Integer.toUnsignedLong(e.rkey()))
                        .field("vaddr", "0x" + Long.toHexString(e.vaddr()))
                        .field("gid", e.gidText())
                        .field("gid_index", e.gidIndex())
                        .endObject();
            }
            w.endArray();
        }

        private static void writeBandwidth(JsonWriter w, BandwidthResult r) {
            w.beginObject()
                    .field("size_bytes", r.sizeBytes())
                    .field("iterations", r.iterations())
                    .field("bw_peak", r.peak())
                    .field("bw_average", r.average())
                    .field("bw_unit", r.unit().label())
                    .field("msg_rate_mpps", r.messageRateMpps())
                    .endObject();
        }

        private static void writeLatency(JsonWriter w, LatencyResult r) {
            w.beginObject()
                    .field("size_bytes", r.sizeBytes())
                    .field("iterations", r.iterations())
                    .field("t_min_us", r.minUs())
                    .field("t_max_us", r.maxUs())
                    .field("t_typical_us", r.typicalUs())
                    .field("t_avg_us", r.avgUs())
                    .field("t_stdev_us", r.stdevUs())
                    .field("p99_us", r.p99Us())
                    .field("p99_9_us", r.p999Us())
                    .endObject();
        }
    }
}
