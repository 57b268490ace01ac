package io.jperf.path;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Consistency checks over one or two {@link PathRecord}s, one per failure class of
 * docs/domain.md:
 * <ul>
 * <li>F1 GID: RoCE v1 or a link-local GID chosen; types, IPv4 mapping or link-locality differ
 *     between the ends; an end connects to an address that is not the other end's GID.</li>
 * <li>F2 egress: this end's kernel route leaves through a netdev other than the GID's (multi-rail
 *     collapse); INFO when an unbound socket would pick another source address (either end).</li>
 * <li>F3 return path (needs the peer's record): the peer has no route back, or its route back
 *     leaves through a netdev other than its GID's.</li>
 * <li>F4 MTU: active MTUs differ between the ends; a netdev MTU is too small for its port's
 *     active MTU. Rule: RoCE v2 needs {@code netdev MTU >= IB MTU + 96}, the RoCE headers the
 *     kernel subtracts in {@code iboe_get_mtu} (GRH/IP 40 + UDP 8 + BTH 12 + XRC ext 4 +
 *     AtomicETH 28 + ICRC 4); so 4096 needs 4192, 1024 needs 1120.</li>
 * <li>F5 QoS (only with {@link Option#QOS_EXPECTED}): traffic class 0, or ECN bits Not-ECT.</li>
 * <li>F6 state: port not ACTIVE, netdev down, no IPv4 on the RoCE netdev, no GID with an IP.</li>
 * <li>F7 NUMA: NIC and test thread on different nodes (skipped when either is -1).</li>
 * </ul>
 * Per-end checks run on the local record and, when given, on the peer's (evidence keys say
 * which end). The checks themselves are {@link PathChecks}' (which {@code jperf doctor} runs
 * too); this class picks them for a test and keeps their findings. Stateless and thread-safe.
 */
public final class Verdicts {

    /** RoCE v2 header bytes on top of the IB MTU, as the kernel's {@code iboe_get_mtu} counts them. */
    public static final int ROCE_HEADER_BYTES = PathChecks.ROCE_HEADER_BYTES;

    /** Evaluation switches. */
    public enum Option {
        /** The fabric has a lossless/ECN class for RDMA: F5 checks the traffic class. */
        QOS_EXPECTED
    }

    private Verdicts() {
    }

    /**
     * @param local         this end's record
     * @param peerOrNull    the other end's record, if it was exchanged; cross-end checks need it
     * @param options       evaluation switches
     * @return the findings, ordered by failure class then local before peer; empty when all is consistent
     */
    public static List<Verdict> evaluate(PathRecord local, PathRecord peerOrNull, Option... options) {
        return findings(checks(local, peerOrNull, options));
    }

    /**
     * Every check {@link #evaluate} runs, with its outcome (passed, skipped or a finding), in the
     * same order: what {@code jperf doctor} shows for a pair of ends.
     */
    public static List<CheckResult> checks(PathRecord local, PathRecord peerOrNull, Option... options) {
        Set<Option> opts = options.length == 0 ? EnumSet.noneOf(Option.class) : EnumSet.copyOf(List.of(options));
        List<End> ends = new ArrayList<>();
        ends.add(new End("local", local));
        if (peerOrNull != null) {
            ends.add(new End("peer", peerOrNull));
        }
        List<CheckResult> out = new ArrayList<>();
        for (End e : ends) {
            gidChoice(e, out);
        }
        if (peerOrNull != null) {
            out.add(PathChecks.gidTypePair(local, peerOrNull));
            out.add(PathChecks.gidFamilyPair(local, peerOrNull));
            out.add(PathChecks.destinationIsPeerGid("local", local, "peer", peerOrNull));
            out.add(PathChecks.destinationIsPeerGid("peer", peerOrNull, "local", local));
        }
        for (End e : ends) {
            // the peer's own egress is its return path: F3 reports it, once
            if (e.r() == local) {
                out.add(PathChecks.egressNetdev(e.name(), e.r()));
            }
            out.add(PathChecks.unboundSource(e.name(), e.r()));
        }
        if (peerOrNull != null) {
            out.add(PathChecks.returnPath(peerOrNull));
            out.add(PathChecks.activeMtuPair(local, peerOrNull));
        }
        for (End e : ends) {
            out.add(PathChecks.netdevMtu(e.name(), e.r().rdma(), e.r().netdev()));
        }
        if (opts.contains(Option.QOS_EXPECTED)) {
            for (End e : ends) {
                out.add(PathChecks.trafficClass(e.name(), e.r().trafficClass()));
            }
        }
        for (End e : ends) {
            state(e, out);
        }
        for (End e : ends) {
            out.add(PathChecks.numa(e.name(), e.r().rdma().device(), e.r().numa()));
        }
        return List.copyOf(out);
    }

    /**
     * The checks that hold for one end whatever its peer and destination: GID choice (F1), netdev
     * vs port MTU (F4), port/netdev/IP state (F6), NUMA placement (F7). For an end that could not
     * run a test, e.g. a peer that refused because its port is down.
     *
     * @param endName how the evidence names the end, e.g. {@code peer}
     */
    public static List<Verdict> endState(PathRecord record, String endName) {
        End e = new End(endName, record);
        List<CheckResult> out = new ArrayList<>();
        gidChoice(e, out);
        out.add(PathChecks.netdevMtu(endName, record.rdma(), record.netdev()));
        state(e, out);
        out.add(PathChecks.numa(endName, record.rdma().device(), record.numa()));
        return findings(out);
    }

    /** The findings among {@code results}, in order. */
    public static List<Verdict> findings(List<CheckResult> results) {
        return results.stream().map(CheckResult::verdict).flatMap(Optional::stream).toList();
    }

    private record End(String name, PathRecord r) {
    }

    private static void gidChoice(End e, List<CheckResult> out) {
        out.add(PathChecks.gidType(e.name(), e.r().rdma()));
        out.add(PathChecks.gidLinkLocal(e.name(), e.r().rdma()));
    }

    private static void state(End e, List<CheckResult> out) {
        PathRecord p = e.r();
        out.add(PathChecks.portActive(e.name(), p.rdma()));
        if (p.netdev().isPresent()) {
            out.add(PathChecks.netdevUp(e.name(), p.netdev().get()));
            if (p.rdma().isRoce()) {
                out.add(PathChecks.ipv4(e.name(), p.netdev().get()));
            }
        }
        out.add(PathChecks.ipGid(e.name(), p.rdma()));
    }
}
