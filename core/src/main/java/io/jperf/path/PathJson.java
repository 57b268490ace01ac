package io.jperf.path;

import io.jperf.report.JsonWriter;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes {@link PathRecord}s and {@link Verdict}s as JSON with {@link JsonWriter}. Unknown values
 * are {@code null} (never omitted), so every document has the same shape. Addresses are strings
 * ({@code "10.0.0.1"}, {@code "fd00::1"}); GIDs are in sysfs form. Stateless and thread-safe.
 *
 * <pre>{@code
 * {"rdma": {"device": "mlx5_0", "port": 1, "linkLayer": "Ethernet", "portState": "ACTIVE", "activeMtu": 4096,
 *           "gid": {"index": 3, "value": "...", "type": "RoCE v2"}, "netdev": "eth2", "ifindex": 5, "vlanId": null},
 *  "source": "10.0.1.5", "destination": "10.0.2.7",
 *  "route": {"table": 101, "tableName": "101", "type": "unicast", "egress": "eth2", "egressIfindex": 5,
 *            "gateway": "10.0.1.1", "preferredSource": null, "matchedPrefix": "0.0.0.0/0", "protocol": 4},
 *  "rule": {"priority": 1000, "text": "1000: from 10.0.1.5 lookup 101", "table": 101, "basis": "..."},
 *  "unboundSource": "10.0.0.5", "netdev": {"name": "eth2", "mtu": 9000, "operstate": "up", "addresses": [...]},
 *  "trafficClass": {"value": 106, "dscp": 26, "ecn": "ECT(0)"},
 *  "numa": {"nicNode": 1, "cpu": 12, "cpuNode": 1}, "gaps": []}
 * }</pre>
 */
public final class PathJson {

    private PathJson() {
    }

    /** A standalone document of one record. */
    public static String toJson(PathRecord record) {
        JsonWriter w = new JsonWriter();
        write(w, record);
        return w.toJson();
    }

    /** A standalone document {@code {"local": ..., "peer": ... or null, "verdicts": [...]}}. */
    public static String toJson(PathRecord local, PathRecord peerOrNull, List<Verdict> verdicts) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("local");
        write(w, local);
        w.name("peer");
        if (peerOrNull == null) {
            w.nullValue();
        } else {
            write(w, peerOrNull);
        }
        w.name("verdicts");
        writeVerdicts(w, verdicts);
        return w.endObject().toJson();
    }

    /** Writes the record as one JSON object value (after {@code name(...)} or inside an array). */
    public static void write(JsonWriter w, PathRecord r) {
        RdmaEnd d = r.rdma();
        w.beginObject();
        w.name("rdma").beginObject()
                .field("device", d.device())
                .field("port", d.port())
                .field("linkLayer", d.linkLayer().perftestName())
                .field("portState", d.portState().name())
                .field("activeMtu", d.activeMtu().bytes());
        w.name("gid").beginObject()
                .field("index", d.gidIndex())
                .field("value", d.gid().toString())
                .field("type", d.gidType().label())
                .endObject();
        optString(w, "netdev", d.netdev());
        w.field("ifindex", d.ifindex());
        w.name("vlanId");
        if (d.vlanId().isPresent()) {
            w.value(d.vlanId().getAsInt());
        } else {
            w.nullValue();
        }
        w.endObject();

        optAddress(w, "source", r.source());
        w.field("destination", Addr.text(r.destination()));

        w.name("route");
        if (r.route().isEmpty()) {
            w.nullValue();
        } else {
            Route rt = r.route().get();
            w.beginObject()
                    .field("table", rt.table())
                    .field("tableName", rt.tableName())
                    .field("type", rt.type().label());
            optString(w, "egress", rt.egressNetdev());
            w.field("egressIfindex", rt.egressIfindex());
            optAddress(w, "gateway", rt.gateway());
            optAddress(w, "preferredSource", rt.preferredSource());
            optString(w, "matchedPrefix", rt.matchedPrefix().map(Prefix::toString));
            w.name("protocol");
            if (rt.protocol() >= 0) {
                w.value(rt.protocol());
            } else {
                w.nullValue();
            }
            w.endObject();
        }

        w.name("rule");
        if (r.rule().isEmpty()) {
            w.nullValue();
        } else {
            RuleMatch m = r.rule().get();
            w.beginObject()
                    .field("priority", m.rule().priority())
                    .field("text", m.rule().toString())
                    .field("table", m.rule().table())
                    .field("basis", m.basis())
                    .endObject();
        }
        optAddress(w, "unboundSource", r.unboundSource());

        w.name("netdev");
        if (r.netdev().isEmpty()) {
            w.nullValue();
        } else {
            NetdevState n = r.netdev().get();
            w.beginObject()
                    .field("name", n.name())
                    .field("mtu", n.mtu())
                    .field("operstate", n.operstate());
            w.name("addresses").beginArray();
            for (InetAddress a : n.addresses()) {
                w.value(Addr.text(a));
            }
            w.endArray().endObject();
        }

        TrafficClass tc = r.trafficClass();
        w.name("trafficClass").beginObject()
                .field("value", tc.value())
                .field("dscp", tc.dscp())
                .field("ecn", tc.ecn().label())
                .endObject();
        NumaPlacement numa = r.numa();
        w.name("numa").beginObject()
                .field("nicNode", numa.nicNode())
                .field("cpu", numa.cpu())
                .field("cpuNode", numa.cpuNode())
                .endObject();
        w.name("gaps").beginArray();
        for (String g : r.gaps()) {
            w.value(g);
        }
        w.endArray();
        w.endObject();
    }

    /** Writes the verdicts as one JSON array value. */
    public static void writeVerdicts(JsonWriter w, List<Verdict> verdicts) {
        w.beginArray();
        for (Verdict v : verdicts) {
            w.beginObject()
                    .field("id", v.id())
                    .field("check", v.check())
                    .field("severity", v.severity().name())
                    .field("summary", v.summary());
            w.name("evidence").beginObject();
            for (Map.Entry<String, String> e : v.evidence().entrySet()) {
                w.field(e.getKey(), e.getValue());
            }
            w.endObject();
            w.field("fixHint", v.fixHint()).endObject();
        }
        w.endArray();
    }

    private static void optString(JsonWriter w, String name, Optional<String> v) {
        w.name(name).value(v.orElse(null));
    }

    private static void optAddress(JsonWriter w, String name, Optional<InetAddress> v) {
        w.name(name).value(v.map(Addr::text).orElse(null));
    }
}
