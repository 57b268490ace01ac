package io.jperf.cli;

import io.jperf.report.JsonWriter;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.PortInfo;

import java.util.List;
import java.util.Optional;

/** {@code jperf devices --json}: the device snapshots as one JSON document. */
final class DevicesJson {
    private DevicesJson() {
    }

    static String write(List<DeviceInfo> devices) {
        JsonWriter w = new JsonWriter().beginObject().name("devices").beginArray();
        for (DeviceInfo d : devices) {
            w.beginObject()
                    .field("name", d.name())
                    .field("node_guid", d.nodeGuid())
                    .field("firmware", d.firmware())
                    .field("vendor_id", d.vendorId())
                    .field("vendor_part_id", d.vendorPartId())
                    .field("max_qp", d.maxQp())
                    .field("max_qp_wr", d.maxQpWr())
                    .field("max_cqe", d.maxCqe())
                    .field("max_mr_size", d.maxMrSize());
            w.name("ports").beginArray();
            for (PortInfo p : d.ports()) {
                port(w, p);
            }
            w.endArray().endObject();
        }
        return w.endArray().endObject().toJson();
    }

    private static void port(JsonWriter w, PortInfo p) {
        Optional<GidEntry> chosen = GidSelection.perftestDefault(p);
        w.beginObject()
                .field("port", p.number())
                .field("state", p.state().name())
                .field("max_mtu", p.maxMtu().bytes())
                .field("active_mtu", p.activeMtu().bytes())
                .field("link_layer", p.linkLayer().name())
                .field("lid", p.lid())
                .field("rate_gbps", p.rateGbps())
                .field("gid_table_length", p.gidTableLength());
        w.name("default_gid_index");
        if (chosen.isPresent()) {
            w.value(chosen.get().index());
        } else {
            w.nullValue();
        }
        w.name("gids").beginArray();
        for (GidEntry g : p.gids()) {
            w.beginObject()
                    .field("index", g.index())
                    .field("gid", g.gid().toString())
                    .field("type", g.type().label())
                    .field("netdev", g.netdev().orElse(null))
                    .field("ip", g.ipAddress().map(a -> a.getHostAddress()).orElse(null))
                    .endObject();
        }
        w.endArray().endObject();
    }
}
