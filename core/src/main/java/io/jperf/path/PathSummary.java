package io.jperf.path;

import java.net.InetAddress;
import java.util.List;
import java.util.StringJoiner;

/**
 * A compact, one-paragraph text form of a {@link PathRecord} for the end of a test's output, e.g.
 * <pre>
 * Path: mlx5_0 port 1 Ethernet ACTIVE MTU 4096, GID 3 0000:...:0a00:0105 RoCE v2 on eth2 (VLAN 100, MTU 9000, up);
 * 10.0.1.5 -&gt; 10.0.2.7 table 101 via rule "1000: from 10.0.1.5 lookup 101", dev eth2 gw 10.0.1.1 unicast;
 * tclass 106 (DSCP 26, ECT(0)); NIC NUMA 1, thread CPU 12 NUMA 1.
 * </pre>
 * Stateless and thread-safe.
 */
public final class PathSummary {

    private PathSummary() {
    }

    /** The record as one paragraph (no trailing newline). */
    public static String text(PathRecord r) {
        RdmaEnd d = r.rdma();
        StringBuilder sb = new StringBuilder(256);
        sb.append("Path: ").append(d.device()).append(" port ").append(d.port()).append(' ')
                .append(d.linkLayer().perftestName()).append(' ').append(d.portState()).append(" MTU ")
                .append(d.activeMtu().bytes()).append(", GID ").append(d.gidIndex()).append(' ').append(d.gid())
                .append(' ').append(d.gidType().label());
        if (d.netdev().isPresent()) {
            sb.append(" on ").append(d.netdev().get());
            StringJoiner extra = new StringJoiner(", ", " (", ")").setEmptyValue("");
            d.vlanId().ifPresent(v -> extra.add("VLAN " + v));
            r.netdev().ifPresent(n -> extra.add("MTU " + n.mtu()).add(n.operstate()));
            sb.append(extra);
        }
        sb.append("; ").append(r.source().map(Addr::text).orElse("*")).append(" -> ")
                .append(Addr.text(r.destination()));
        if (r.route().isPresent()) {
            Route rt = r.route().get();
            sb.append(" table ").append(rt.tableName());
            r.rule().ifPresent(m -> sb.append(" via rule \"").append(m.rule()).append('"'));
            sb.append(", dev ").append(rt.egressLabel());
            rt.gateway().ifPresent(g -> sb.append(" gw ").append(Addr.text(g)));
            rt.preferredSource().ifPresent(s -> sb.append(" src ").append(Addr.text(s)));
            sb.append(' ').append(rt.type().label());
        } else {
            sb.append(" no route");
        }
        if (r.unboundSource().isPresent() && r.source().isPresent() && !r.unboundSource().equals(r.source())) {
            sb.append(" (unbound source would be ").append(Addr.text(r.unboundSource().get())).append(')');
        }
        sb.append("; tclass ").append(r.trafficClass());
        NumaPlacement n = r.numa();
        sb.append("; NIC NUMA ").append(node(n.nicNode())).append(", thread CPU ")
                .append(n.cpu() < 0 ? "?" : Integer.toString(n.cpu())).append(" NUMA ").append(node(n.cpuNode()));
        List<String> gaps = r.gaps();
        if (!gaps.isEmpty()) {
            sb.append("; unknown: ").append(String.join("; ", gaps));
        }
        return sb.append('.').toString();
    }

    private static String node(int node) {
        return node < 0 ? "none" : Integer.toString(node);
    }
}
