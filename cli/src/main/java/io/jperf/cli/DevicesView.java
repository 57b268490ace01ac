package io.jperf.cli;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.PortInfo;

import java.util.List;
import java.util.Optional;

/** Renders device snapshots as {@code ibv_devinfo}-like text with a GID table. */
final class DevicesView {
    private DevicesView() {
    }

    static String text(List<DeviceInfo> devices, boolean verbose) {
        StringBuilder sb = new StringBuilder();
        for (DeviceInfo d : devices) {
            sb.append("hca_id: ").append(d.name()).append('\n');
            line(sb, 1, "node_guid", d.nodeGuid());
            line(sb, 1, "fw_ver", d.firmware().isEmpty() ? "-" : d.firmware());
            line(sb, 1, "vendor_id", String.format("0x%04x", d.vendorId()));
            line(sb, 1, "vendor_part_id", Integer.toString(d.vendorPartId()));
            if (verbose) {
                line(sb, 1, "max_qp", Integer.toString(d.maxQp()));
                line(sb, 1, "max_qp_wr", Integer.toString(d.maxQpWr()));
                line(sb, 1, "max_cqe", Integer.toString(d.maxCqe()));
                line(sb, 1, "max_mr_size", String.format("0x%x", d.maxMrSize()));
            }
            line(sb, 1, "phys_port_cnt", Integer.toString(d.ports().size()));
            for (PortInfo p : d.ports()) {
                port(sb, p, verbose);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static void port(StringBuilder sb, PortInfo p, boolean verbose) {
        sb.append("\tport:\t").append(p.number()).append('\n');
        line(sb, 2, "state", "PORT_" + p.state());
        line(sb, 2, "max_mtu", Integer.toString(p.maxMtu().bytes()));
        line(sb, 2, "active_mtu", Integer.toString(p.activeMtu().bytes()));
        line(sb, 2, "link_layer", p.linkLayer().perftestName());
        line(sb, 2, "rate", p.rateGbps() > 0 ? String.format("%.0f Gb/s (%dx %.1f)", p.rateGbps(), p.lanes(), p.laneGbps()) : "unknown");
        if (verbose || p.lid() != 0) {
            line(sb, 2, "lid", String.format("0x%04x", p.lid()));
        }
        Optional<GidEntry> chosen = GidSelection.perftestDefault(p);
        List<GidEntry> shown = verbose ? p.gids()
                : p.gids().stream().filter(g -> !g.gid().isLinkLocal() || chosen.filter(g::equals).isPresent()).toList();
        sb.append("\t\tGID table (").append(p.gids().size()).append(" valid of ").append(p.gidTableLength())
                .append(verbose || shown.size() == p.gids().size() ? "" : "; link-local entries hidden, -v shows all")
                .append("):\n");
        sb.append(String.format("\t\t  %5s  %-39s  %-7s  %-12s  %s%n", "index", "GID", "type", "netdev", "address"));
        for (GidEntry g : shown) {
            boolean isChosen = chosen.filter(g::equals).isPresent();
            sb.append(String.format("\t\t%s %5d  %-39s  %-7s  %-12s  %s%n", isChosen ? "*" : " ", g.index(), g.gid(),
                    g.type().label(), g.netdev().orElse("-"),
                    g.ipAddress().map(a -> a.getHostAddress()).orElse("-")));
        }
        if (p.gids().isEmpty()) {
            sb.append("\t\t  (no valid GID: on RoCE, the netdev has no IP address or is down)\n");
        }
    }

    private static void line(StringBuilder sb, int depth, String key, String value) {
        sb.append("\t".repeat(depth)).append(String.format("%-16s%s%n", key + ":", value));
    }

    static String json(List<DeviceInfo> devices) {
        return DevicesJson.write(devices);
    }
}
