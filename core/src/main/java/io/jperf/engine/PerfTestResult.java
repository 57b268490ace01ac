package io.jperf.engine;

import io.jperf.cm.CmPath;
import io.jperf.options.TestOptions;
import io.jperf.report.JsonReport;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;

import java.util.List;
import java.util.Optional;
import io.jperf.path.PathJson;

/**
 * Everything one run of a write test produced: the parameters, the header facts (device, MTU,
 * GID index, inline size), both ends' QP endpoints, and one result per message size. Immutable;
 * holds the same data as the JSON report.
 *
 * @param options     the parameters this side ran with
 * @param header      the resolved header facts
 * @param local       this side's QP ends
 * @param remote      the peer's QP ends
 * @param peerVersion the version text the peer advertised (contains "jperf" for a jperf peer)
 * @param bandwidth   bandwidth results by message size (empty for latency tests)
 * @param latency     latency results by message size (empty for bandwidth tests)
 * @param path        the Linux path both ends ran on and its verdicts; empty without a GID (InfiniBand)
 * @param rdmaCm      with -R, what RDMA CM resolved for each connection (device, port, addresses, GIDs, route)
 * @param warnings    what the user should know that did not stop the test
 */
public record PerfTestResult(TestOptions options, TestHeader header, List<EndpointInfo> local,
                              List<EndpointInfo> remote, String peerVersion, List<BandwidthResult> bandwidth,
                              List<LatencyResult> latency, Optional<PathReport> path, List<CmPath> rdmaCm,
                              List<String> warnings) {
    /** The result as one JSON document (the same data, see {@link JsonReport}), run info of this process. */
    public String toJson() {
        return toJson(RunInfo.embedded());
    }

    /** The result as one JSON document (the same data, see {@link JsonReport}) from the run {@code run}. */
    public String toJson(RunInfo run) {
        JsonReport.Builder json = JsonReport.builder(options, header).run(run).local(local).remote(remote);
        bandwidth.forEach(json::result);
        latency.forEach(json::result);
        json.section("peer_version", w -> w.value(peerVersion));
        path.ifPresent(p -> json.section("path", w -> {
            w.beginObject();
            PathJson.write(w.name("local"), p.local());
            w.name("peer");
            if (p.peer().isPresent()) {
                PathJson.write(w, p.peer().get());
            } else {
                w.nullValue();
            }
            PathJson.writeVerdicts(w.name("verdicts"), p.verdicts());
            w.endObject();
        }));
        if (!rdmaCm.isEmpty()) {
            json.section("rdma_cm", w -> {
                w.beginArray();
                for (CmPath p : rdmaCm) {
                    w.beginObject().field("device", p.device()).field("port", p.port())
                            .field("source", p.source().map(Object::toString).orElse(null))
                            .field("destination", p.destination().map(Object::toString).orElse(null))
                            .field("sgid", p.sgid().toString()).field("dgid", p.dgid().toString())
                            .field("route", p.route().describe()).field("route_consistent", p.route().consistent())
                            .endObject();
                }
                w.endArray();
            });
        }
        json.section("warnings", w -> {
            w.beginArray();
            warnings.forEach(w::value);
            w.endArray();
        });
        return json.build().toJson();
    }

    public PerfTestResult {
        local = List.copyOf(local);
        remote = List.copyOf(remote);
        bandwidth = List.copyOf(bandwidth);
        rdmaCm = List.copyOf(rdmaCm);
        latency = List.copyOf(latency);
        warnings = List.copyOf(warnings);
    }
}
