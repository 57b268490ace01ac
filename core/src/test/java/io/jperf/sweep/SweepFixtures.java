package io.jperf.sweep;

import io.jperf.engine.PathReport;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.NetdevState;
import io.jperf.path.NumaPlacement;
import io.jperf.path.PathRecord;
import io.jperf.path.PathSummary;
import io.jperf.path.PolicyRule;
import io.jperf.path.Prefix;
import io.jperf.path.RdmaEnd;
import io.jperf.path.Route;
import io.jperf.path.RouteType;
import io.jperf.path.RuleMatch;
import io.jperf.path.TrafficClass;
import io.jperf.path.Verdict;
import io.jperf.path.Verdicts;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortState;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SequencedMap;

/**
 * Hand-built sweeps for the sweep tests, shaped like the soft-RoCE lab's two-rail hosts: this host
 * has {@code rxe0} on {@code veth0} 10.20.0.1 (ifindex 3) and {@code rxe1} on {@code veth1} 10.20.1.1
 * (ifindex 4), each with its RoCE v2 GID at index 1; the {@code jperf serve} peer has 10.20.0.2 and
 * 10.20.1.2 the same way. In the correct setup each rail has a policy-routing table (101, 102);
 * in the collapsed one only the main table's default route via 10.20.0.254 on {@code veth0} exists,
 * so rail1's traffic leaves through rail0 (F2 ERROR on every rail1 choice).
 *
 * <p>Path records are built with the real record types and the verdicts come from {@link Verdicts},
 * the path text from {@link PathSummary}, as the sweep runner produces them. The building blocks
 * (choice, rows, records) are public so that other sweep tests can make their own variants.
 */
public final class SweepFixtures {

    /** The control address of the {@code jperf serve} peer. */
    public static final String PEER = "10.20.0.2";
    /** When the fixture sweeps started. */
    public static final Instant STARTED = Instant.parse("2025-06-02T09:14:05Z");

    /** One rail of the lab host pair: device, netdev, ifindex, this host's and the peer's address. */
    public record Rail(String device, String netdev, int ifindex, String localIp, String peerIp) {
        /** The dimension value, e.g. {@code rxe1>10.20.1.2}. */
        public String label() {
            return device + ">" + peerIp;
        }
    }

    public static final Rail RAIL0 = new Rail("rxe0", "veth0", 3, "10.20.0.1", "10.20.0.2");
    public static final Rail RAIL1 = new Rail("rxe1", "veth1", 4, "10.20.1.1", "10.20.1.2");

    /** The CM error of a rail1 -R choice when the rail collapses (the peer answers, but not on rail1). */
    public static final String CM_UNREACHABLE = "rdma_connect 10.20.1.1 -> 10.20.1.2:18515 failed: "
            + "RDMA_CM_EVENT_UNREACHABLE (status -110 ETIMEDOUT) after 3 tries of 2 s; the kernel routes 10.20.1.2 "
            + "from 10.20.1.1 via veth0 gw 10.20.0.254 (table main, rule 32766 'from all lookup main'), but the source "
            + "address 10.20.1.1 is on veth1: the peer did not answer the connection request: check the server listens "
            + "on that address and port, and that its replies come back over the same rail (asymmetric routing, F3)";

    private SweepFixtures() {
    }

    // ------------------------------------------------------------------ whole sweeps

    /** write-bw over 2 rails x 2 sizes (4K, 64K) with per-rail policy routing: all consistent. */
    public static SweepResult bwMultiRail() {
        return bwRails(false, false);
    }

    /** The same sweep on a host with a single default route: rail1's choices have F2 ERROR and lower bandwidth. */
    public static SweepResult bwCollapsed() {
        return bwRails(true, false);
    }

    /**
     * write-bw over rail x rdma_cm (off, on) x size (4K, 64K), 8 choices. {@code collapsed}: rail1 has
     * F2 ERROR everywhere, and its -R 64K choice failed with {@link #CM_UNREACHABLE}.
     */
    public static SweepResult bwRailsCm(boolean collapsed) {
        return bwRails(collapsed, true);
    }

    private static SweepResult bwRails(boolean collapsed, boolean withCm) {
        List<String> dims = withCm ? List.of("rail", "rdma_cm", "size") : List.of("rail", "size");
        List<SweepRow> rows = new ArrayList<>();
        for (Rail rail : List.of(RAIL0, RAIL1)) {
            for (boolean cm : withCm ? List.of(false, true) : List.of(false)) {
                for (long size : List.of(4096L, 65536L)) {
                    SequencedMap<String, String> d = new LinkedHashMap<>();
                    d.put("rail", rail.label());
                    if (withCm) {
                        d.put("rdma_cm", cm ? "on" : "off");
                    }
                    d.put("size", size == 4096 ? "4K" : "64K");
                    TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost(rail.peerIp())
                            .device(rail.device()).gidIndex(1).size(size).rdmaCm(cm).trafficClass(106).build();
                    SweepChoice c = choice(rows.size(), d, o);
                    boolean bad = collapsed && rail == RAIL1;
                    PathRecord local = bad ? collapsedRecord(rail, 106) : healthyRecord(rail, 106);
                    PathRecord peer = peerRecord(rail, 106);
                    if (bad && cm && size == 65536) {
                        rows.add(failedRow(c, CM_UNREACHABLE, local, Optional.of(peer), Duration.ofMillis(6210)));
                        continue;
                    }
                    // MiB/s: soft-RoCE in the lab; a collapsed rail1 detours through rail0's gateway
                    double mib = size == 4096 ? 1873.4 : 2301.7;
                    if (rail == RAIL1) {
                        mib *= 0.994;
                    }
                    if (bad) {
                        mib *= size == 4096 ? 0.71 : 0.52;
                    }
                    if (cm) {
                        mib *= 0.987;
                    }
                    List<String> warnings = bad && cm ? List.of("RDMA CM resolved 10.20.1.2 to device rxe0 port 1 "
                            + "(route out of veth0 via 10.20.0.254), not rxe1 as -d asked") : List.of();
                    rows.add(bwRow(c, local, peer, List.of(bandwidth(size, mib)), warnings, Duration.ofMillis(2480)));
                }
            }
        }
        return new SweepResult(TestKind.WRITE_BW, PEER, dims, rows, STARTED,
                Duration.ofMillis(rows.stream().mapToLong(r -> r.elapsed().toMillis()).sum() + 310));
    }

    /**
     * write-bw over rail x size (2, 64, 4K, 64K) on a hardware-like pair (message rate ~8 Mpps for
     * small messages, ~94 Gb/s at 64K), rail1 collapsed onto rail0's route (F2 ERROR, 52 % of the
     * bandwidth at 64K), its 4K choice failed with {@link #CM_UNREACHABLE}. Gb/s spans three decades
     * (0.13 .. 94), so every chart of it by Gb/s needs a log axis.
     */
    public static SweepResult bwSmallAndLarge() {
        List<SweepRow> rows = new ArrayList<>();
        for (Rail rail : List.of(RAIL0, RAIL1)) {
            for (long size : List.of(2L, 64L, 4096L, 65536L)) {
                SequencedMap<String, String> d = new LinkedHashMap<>();
                d.put("rail", rail.label());
                d.put("size", HtmlText.size(size));
                TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost(rail.peerIp())
                        .device(rail.device()).gidIndex(1).size(size).trafficClass(106).reportGbits(true).build();
                SweepChoice c = choice(rows.size(), d, o);
                boolean bad = rail == RAIL1;
                PathRecord local = bad ? collapsedRecord(rail, 106) : healthyRecord(rail, 106);
                PathRecord peer = peerRecord(rail, 106);
                if (bad && size == 4096) {
                    rows.add(failedRow(c, CM_UNREACHABLE, local, Optional.of(peer), Duration.ofMillis(6210)));
                    continue;
                }
                double mpps = size == 2 ? 8.1 : size == 64 ? 7.9 : size == 4096 ? 2.6 : 0.18;
                if (bad) {
                    mpps *= size == 65536 ? 0.52 : 0.93;
                }
                double gbits = mpps * 1e6 * size * 8 / 1e9;
                rows.add(bwRow(c, local, peer, List.of(bandwidthGbits(size, gbits)), List.of(), Duration.ofMillis(2480)));
            }
        }
        return new SweepResult(TestKind.WRITE_BW, PEER, List.of("rail", "size"), rows, STARTED,
                Duration.ofMillis(rows.stream().mapToLong(r -> r.elapsed().toMillis()).sum() + 310));
    }

    /**
     * write-lat over rail x tclass (0, 106) at 2 bytes, evaluated with {@code --qos}: the tclass 0
     * choices have F5 WARNING; rail1 is 30 % slower (one more switch hop), beyond the noise threshold
     * of {@link SweepRanking}, so rail0 tclass 106 is ranked best and rail1 tclass 0 worst.
     */
    public static SweepResult lat() {
        List<SweepRow> rows = new ArrayList<>();
        for (Rail rail : List.of(RAIL0, RAIL1)) {
            for (int tclass : List.of(0, 106)) {
                SequencedMap<String, String> d = new LinkedHashMap<>();
                d.put("rail", rail.label());
                d.put("tclass", Integer.toString(tclass));
                TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).serverHost(rail.peerIp()).device(rail.device())
                        .gidIndex(1).trafficClass(tclass).build();
                double typical = (rail == RAIL0 ? 7.42 : 9.61) + (tclass == 0 ? 0.03 : 0);
                rows.add(latRow(choice(rows.size(), d, o), healthyRecord(rail, tclass), peerRecord(rail, tclass),
                        List.of(latency(2, typical)), Duration.ofMillis(1730), Verdicts.Option.QOS_EXPECTED));
            }
        }
        return new SweepResult(TestKind.WRITE_LAT, PEER, List.of("rail", "tclass"), rows, STARTED,
                Duration.ofMillis(7350));
    }

    /** write-lat with -a (2 B .. 8K, 13 sizes per choice) over the two rails: no size dimension, several sizes per row. */
    public static SweepResult latAllSizes() {
        List<SweepRow> rows = new ArrayList<>();
        for (Rail rail : List.of(RAIL0, RAIL1)) {
            SequencedMap<String, String> d = new LinkedHashMap<>();
            d.put("rail", rail.label());
            TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).serverHost(rail.peerIp()).device(rail.device())
                    .gidIndex(1).allSizes(true).build();
            List<LatencyResult> lats = new ArrayList<>();
            for (long size = 2; size <= 8192; size *= 2) {
                double base = rail == RAIL0 ? 7.4 : 7.9;
                lats.add(latency(size, base + size / 1024.0 * 1.35));
            }
            rows.add(latRow(choice(rows.size(), d, o), healthyRecord(rail, 0), peerRecord(rail, 0), lats,
                    Duration.ofMillis(9400)));
        }
        return new SweepResult(TestKind.WRITE_LAT, PEER, List.of("rail"), rows, STARTED, Duration.ofMillis(19100));
    }

    /** A sweep with the given rows (dimensions taken from the first row's choice). */
    public static SweepResult sweep(TestKind kind, List<SweepRow> rows) {
        List<String> dims = rows.isEmpty() ? List.of() : List.copyOf(rows.getFirst().choice().dimensions().keySet());
        return new SweepResult(kind, PEER, dims, rows, STARTED, Duration.ofSeconds(12));
    }

    // ------------------------------------------------------------------ rows

    /** A sweep point. */
    public static SweepChoice choice(int index, SequencedMap<String, String> dimensions, TestOptions options) {
        return new SweepChoice(index, dimensions, options, Optional.empty());
    }

    /** A write-bw point on {@code rail} with one dimension {@code name=value}. */
    public static SweepChoice bwChoice(int index, Rail rail, String name, String value) {
        SequencedMap<String, String> d = new LinkedHashMap<>();
        d.put(name, value);
        return choice(index, d, TestOptions.builder(TestKind.WRITE_BW).serverHost(rail.peerIp()).device(rail.device())
                .gidIndex(1).build());
    }

    /** A row that ran write-bw; verdicts from both records, path text from the local one. */
    public static SweepRow bwRow(SweepChoice c, PathRecord local, PathRecord peer, List<BandwidthResult> results,
                                 List<String> warnings, Duration elapsed, Verdicts.Option... options) {
        List<Verdict> verdicts = Verdicts.evaluate(local, peer, options);
        PerfTestResult r = result(c.options(), local, peer, verdicts, results, List.of(), warnings);
        return SweepRow.ran(c, r, verdicts, Optional.of(PathSummary.text(local)), elapsed);
    }

    /** A row that ran write-bw at one size with {@code mibPerSec} on a healthy rail0 path. */
    public static SweepRow bwRow(SweepChoice c, double mibPerSec) {
        return bwRow(c, healthyRecord(RAIL0, 0), peerRecord(RAIL0, 0),
                List.of(bandwidth(c.options().params().size(), mibPerSec)), List.of(), Duration.ofSeconds(2));
    }

    /** A row that ran write-lat. */
    public static SweepRow latRow(SweepChoice c, PathRecord local, PathRecord peer, List<LatencyResult> results,
                                  Duration elapsed, Verdicts.Option... options) {
        List<Verdict> verdicts = Verdicts.evaluate(local, peer, options);
        PerfTestResult r = result(c.options(), local, peer, verdicts, List.of(), results, List.of());
        return SweepRow.ran(c, r, verdicts, Optional.of(PathSummary.text(local)), elapsed);
    }

    /** A failed row; verdicts from what was probed (both records when the peer sent its own). */
    public static SweepRow failedRow(SweepChoice c, String error, PathRecord local, Optional<PathRecord> peer,
                                     Duration elapsed) {
        List<Verdict> verdicts = Verdicts.evaluate(local, peer.orElse(null));
        return SweepRow.failed(c, error, verdicts, Optional.of(PathSummary.text(local)), elapsed);
    }

    /** The result of one run, as the engine builds it: one QP per side, GID index 1, RoCE. */
    public static PerfTestResult result(TestOptions o, PathRecord local, PathRecord peer, List<Verdict> verdicts,
                                         List<BandwidthResult> bw, List<LatencyResult> lat, List<String> warnings) {
        TestHeader header = TestHeader.of(o, local.rdma().device(), local.rdma().activeMtu().bytes(), LinkType.ETHERNET,
                local.rdma().gidIndex(), o.params().inlineSize(), "Unsupported", false);
        EndpointInfo me = new EndpointInfo(0, 0x11, 0x2a3b4c, 0x1d0a, 0x7f3a_5c00_0000L, local.rdma().gid().bytes(),
                local.rdma().gidIndex());
        EndpointInfo them = new EndpointInfo(0, 0x12, 0x5e6f70, 0x2e1b, 0x7f91_0a00_0000L, peer.rdma().gid().bytes(),
                peer.rdma().gidIndex());
        return new PerfTestResult(o, header, List.of(me), List.of(them), "6.06 jperf", bw, lat,
                Optional.of(new PathReport(local, Optional.of(peer), verdicts)), List.of(), warnings);
    }

    // ------------------------------------------------------------------ figures

    /** perftest's figures for one size at {@code mibPerSec} average (MiB/s), peak 3 % above, 5000 iterations. */
    public static BandwidthResult bandwidth(long size, double mibPerSec) {
        double mpps = mibPerSec * (1 << 20) / size / 1e6;
        return new BandwidthResult(size, 5000, mibPerSec * 1.03, mibPerSec, mpps, BandwidthResult.Unit.MIB_PER_SEC);
    }

    /** perftest's figures for one size at {@code gbits} average (Gb/s, {@code --report_gbits}), peak 3 % above. */
    public static BandwidthResult bandwidthGbits(long size, double gbits) {
        double mpps = gbits * 1e9 / 8 / size / 1e6;
        return new BandwidthResult(size, 5000, gbits * 1.03, gbits, mpps, BandwidthResult.Unit.GBIT_PER_SEC);
    }

    /** perftest's latency figures for one size around {@code typicalUs}. */
    public static LatencyResult latency(long size, double typicalUs) {
        return new LatencyResult(size, 1000, typicalUs * 0.86, typicalUs * 3.9, typicalUs, typicalUs * 1.04,
                typicalUs * 0.11, typicalUs * 1.62, typicalUs * 2.75);
    }

    // ------------------------------------------------------------------ path records

    /** This host's end on {@code rail} with per-rail policy routing (table 100 + ifindex - 2). */
    public static PathRecord healthyRecord(Rail rail, int tclass) {
        int table = 98 + rail.ifindex();
        Route route = new Route(ip(rail.peerIp()), Optional.of(ip(rail.localIp())), table, RouteType.UNICAST,
                rail.ifindex(), Optional.of(rail.netdev()), Optional.empty(), Optional.empty(),
                Optional.of(new Prefix(ip(subnet(rail.peerIp())), 24)), 4);
        RuleMatch rule = new RuleMatch(PolicyRule.lookup(2, 1000 + table - 100,
                new Prefix(ip(rail.localIp()), 32), null, table), "first matching rule of the kernel's rule list");
        return record(rail, rail.localIp(), rail.peerIp(), route, rule, tclass, rail.localIp());
    }

    /**
     * This host's end on {@code rail} with a single default route: the kernel answers from the
     * main table, default via 10.20.0.254 out of {@code veth0} (ifindex 3), whatever the source.
     */
    public static PathRecord collapsedRecord(Rail rail, int tclass) {
        Route route = new Route(ip(rail.peerIp()), Optional.of(ip(rail.localIp())), 254, RouteType.UNICAST,
                RAIL0.ifindex(), Optional.of(RAIL0.netdev()), Optional.of(ip("10.20.0.254")), Optional.empty(),
                Optional.of(new Prefix(ip("0.0.0.0"), 0)), 3);
        RuleMatch rule = new RuleMatch(PolicyRule.lookup(2, 32766, null, null, 254),
                "first matching rule of the kernel's rule list");
        // unbound, the kernel would also pick rail0's address for the peer's rail1 address
        return record(rail, rail.localIp(), rail.peerIp(), route, rule, tclass, RAIL0.localIp());
    }

    /** The peer's end on {@code rail} (per-rail routing back to this host). */
    public static PathRecord peerRecord(Rail rail, int tclass) {
        int table = 98 + rail.ifindex();
        Route route = new Route(ip(rail.localIp()), Optional.of(ip(rail.peerIp())), table, RouteType.UNICAST,
                rail.ifindex(), Optional.of(rail.netdev()), Optional.empty(), Optional.empty(),
                Optional.of(new Prefix(ip(subnet(rail.localIp())), 24)), 4);
        RuleMatch rule = new RuleMatch(PolicyRule.lookup(2, 1000 + table - 100,
                new Prefix(ip(rail.peerIp()), 32), null, table), "first matching rule of the kernel's rule list");
        return record(rail, rail.peerIp(), rail.localIp(), route, rule, tclass, rail.peerIp());
    }

    private static PathRecord record(Rail rail, String src, String dst, Route route, RuleMatch rule, int tclass,
                                     String unboundSrc) {
        RdmaEnd rdma = new RdmaEnd(rail.device(), 1, LinkLayer.ETHERNET, PortState.ACTIVE, Mtu.MTU_4096, 1,
                Gid.fromAddress(ip(src)), GidType.ROCE_V2, Optional.of(rail.netdev()), rail.ifindex(),
                OptionalInt.empty(), true);
        NetdevState nd = new NetdevState(rail.netdev(), 9000, "up", List.of(ip(src)));
        return new PathRecord(rdma, Optional.of(ip(src)), ip(dst), Optional.of(route), Optional.of(rule),
                Optional.of(ip(unboundSrc)), Optional.of(nd), new TrafficClass(tclass), new NumaPlacement(-1, 2, 0),
                List.of());
    }

    private static String subnet(String ipv4) {
        return ipv4.substring(0, ipv4.lastIndexOf('.')) + ".0";
    }

    /** An address literal (never a name lookup). */
    public static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
