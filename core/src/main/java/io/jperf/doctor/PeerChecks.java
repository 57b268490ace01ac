package io.jperf.doctor;

import io.jperf.engine.PathReport;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.Addr;
import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.PathChecks;
import io.jperf.path.PathRecord;
import io.jperf.path.Prefix;
import io.jperf.path.Route;
import io.jperf.path.RtnetlinkException;
import io.jperf.path.Severity;
import io.jperf.path.Verdict;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pair, against {@code jperf serve} on the peer, per rail: the peer address answers an echo
 * from the rail's own address (IP reachability both ways: the reply takes the peer's return path),
 * the server answers, a short write-bw and write-lat run (RDMA both ways), and the path records
 * both ends exchanged are checked as a test checks them: MTU (F4), GID type and kind (F1), this
 * end's egress (F2), the peer's return path (F3) and the peer's own state. The ports' error and
 * congestion counters are read before and after, and their change reported.
 */
final class PeerChecks {
    static final int BW_SIZE = 65536;
    static final int LAT_SIZE = 2;
    static final int ITERATIONS = 200;
    private static final Duration PING_TIMEOUT = Duration.ofSeconds(3);

    private PeerChecks() {
    }

    /** One rail to check: the local port and the peer's address the server should use (null: the one reached). */
    private record Target(String subject, Optional<HostFacts.Port> port, String peerAddress, String serveAddress,
                          Optional<String> problem) {
    }

    static List<Check> run(HostFacts facts) {
        Doctor d = facts.doctor;
        String host = d.peer.orElseThrow();
        List<Target> targets = new ArrayList<>();
        if (d.rails.isEmpty()) {
            targets.add(target(facts, host));
        } else {
            for (Doctor.Rail r : d.rails) {
                Optional<HostFacts.Port> port = facts.ports.stream().filter(p -> p.device().name().equals(r.device()))
                        .findFirst();
                targets.add(new Target(r.device() + " -> " + r.peerAddress(), port, r.peerAddress(), r.peerAddress(),
                        port.isPresent() ? Optional.empty() : Optional.of("no RDMA port of this host on device '"
                                + r.device() + "' (walked: " + facts.ports.stream().map(HostFacts.Port::subject).toList() + ")")));
            }
        }
        Map<String, Map<String, Long>> before = new LinkedHashMap<>();
        for (Target t : targets) {
            t.port().ifPresent(p -> before.putIfAbsent(p.subject(), PortCounters.read(facts.sys, p.device().name(),
                    p.port().number())));
        }
        List<Check> out = new ArrayList<>();
        for (Target t : targets) {
            out.addAll(pair(facts, host, t));
        }
        before.forEach((subject, counters) -> {
            HostFacts.Port p = facts.ports.stream().filter(x -> x.subject().equals(subject)).findFirst().orElseThrow();
            Map<String, Long> delta = PortCounters.delta(counters, PortCounters.read(facts.sys, p.device().name(),
                    p.port().number()));
            if (!delta.isEmpty()) {
                String when = " during the smoke tests";
                long packets = PortCounters.packets(delta);
                out.add(new Check(Layer.PEER, subject, QosChecks.counters("error-counters",
                        PortCounters.of(delta, PortCounters.Kind.ERROR), "errors, drops, retries or out-of-sequence packets",
                        when, packets)));
                out.add(new Check(Layer.PEER, subject, QosChecks.counters("congestion-counters",
                        PortCounters.of(delta, PortCounters.Kind.CONGESTION), "congestion notifications (CNP) or ECN marks",
                        when, packets)));
            }
        });
        return out;
    }

    /** The local port for a single peer: {@code -d}, else the rail whose subnet holds the peer, else the route's netdev. */
    private static Target target(HostFacts facts, String host) {
        InetAddress addr;
        try {
            addr = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return new Target("-> " + host, Optional.empty(), host, null, Optional.of("cannot resolve the peer '" + host + "'"));
        }
        Optional<HostFacts.Port> port = Optional.empty();
        String how = "";
        if (facts.doctor.device.isPresent()) {
            port = facts.ports.stream().findFirst();
            how = "-d";
        }
        if (port.isEmpty()) {
            port = facts.ports.stream().filter(p -> p.netdev().isPresent()
                    && p.netdev().get().ipv4().stream().anyMatch(x -> new Prefix(x.address(), x.length()).contains(addr)))
                    .findFirst();
            how = "subnet";
        }
        if (port.isEmpty() && facts.network.isPresent()) {
            try {
                Route r = facts.network.get().route(addr, null);
                port = facts.ports.stream().filter(p -> p.netdev().isPresent()
                        && p.netdev().get().name().equals(r.egressNetdev().orElse(""))).findFirst();
                how = "route";
            } catch (IOException | RtnetlinkException e) {
                how = "no route: " + e.getMessage();
            }
        }
        String subject = port.map(p -> p.device().name()).orElse("?") + " -> " + host;
        return new Target(subject, port, addr.getHostAddress(), null, port.isPresent() ? Optional.empty()
                : Optional.of("no RDMA port of this host reaches " + host + " (" + Addr.text(addr) + "): none is on its"
                        + " subnet and its route (" + how + ") leaves through no RDMA netdev; name the device with -d"));
    }

    private static List<Check> pair(HostFacts facts, String host, Target t) {
        Doctor d = facts.doctor;
        List<Check> out = new ArrayList<>();
        if (t.problem().isPresent()) {
            out.add(new Check(Layer.PEER, t.subject(), CheckResult.finding("", "pair", Severity.ERROR, t.problem().get(),
                    new Evidence().with("peer.host", host).with("peer.address", t.peerAddress()),
                    "pass -d DEV, or --rail DEV=PEER_ADDR for each rail")));
            return out;
        }
        HostFacts.Port port = t.port().orElseThrow();
        out.add(new Check(Layer.PEER, t.subject(), ping(facts, port, t.peerAddress())));
        SmokeResult bw = d.smoke.run(options(TestKind.WRITE_BW, port, host, d).size(BW_SIZE).build(), t.serveAddress(),
                d.timeout);
        Evidence where = new Evidence().with("peer.host", host).with("peer.port", d.port)
                .with("peer.address", t.peerAddress()).with("local.device", port.subject());
        switch (bw.stage()) {
            case CONNECT -> {
                out.add(new Check(Layer.PEER, t.subject(), CheckResult.finding("", "serve-reachable", Severity.ERROR,
                        "cannot reach jperf serve at " + host + ":" + d.port + ": " + firstLine(bw), where,
                        "start `jperf serve` on the peer (port " + d.port + ", -p), and check that TCP to it is not filtered")));
                return out;
            }
            case LOCAL -> {
                out.add(new Check(Layer.PEER, t.subject(), CheckResult.finding("", "write-bw", Severity.ERROR,
                        "local end: " + port.subject() + " cannot run a test: " + firstLine(bw), where,
                        "see the RDMA layer above for this port")));
                return out;
            }
            default -> out.add(new Check(Layer.PEER, t.subject(), CheckResult.pass("", "serve-reachable", "jperf serve at "
                    + host + ":" + d.port + " answered" + bw.peerVersion().map(v -> " (" + v + ")").orElse(""),
                    where.with("peer.version", bw.peerVersion().orElse("-")))));
        }
        out.add(new Check(Layer.PEER, t.subject(), smoke("write-bw", bw)));
        if (bw.ok()) {
            bw.path().ifPresentOrElse(p -> pathChecks(t.subject(), p, out), () -> out.add(new Check(Layer.PEER,
                    t.subject(), CheckResult.skip("", "path-records", "the test ran without a GID (InfiniBand): no IP path"
                            + " to compare", new Evidence()))));
        } else {
            for (Verdict v : bw.failureVerdicts()) {
                out.add(new Check(Layer.PEER, t.subject(), PathChecks.asResult(v)));
            }
        }
        SmokeResult lat = d.smoke.run(options(TestKind.WRITE_LAT, port, host, d).size(LAT_SIZE).build(), t.serveAddress(),
                d.timeout);
        out.add(new Check(Layer.PEER, t.subject(), smoke("write-lat", lat)));
        return out;
    }

    private static String firstLine(SmokeResult r) {
        return r.failure().orElse("?").lines().findFirst().orElse("?");
    }

    private static TestOptions.Builder options(TestKind kind, HostFacts.Port port, String host, Doctor d) {
        return TestOptions.builder(kind).device(port.device().name()).ibPort(port.port().number()).serverHost(host)
                .port(d.port).iterations(ITERATIONS).trafficClass(d.trafficClass).reportGbits(true);
    }

    private static CheckResult ping(HostFacts facts, HostFacts.Port port, String peerAddress) {
        Evidence ev = new Evidence().with("local.netdev", port.netdev().map(HostFacts.Netdev::name).orElse("-"))
                .with("peer.address", peerAddress);
        if (port.netdev().isEmpty() || port.netdev().get().ipv4().isEmpty()) {
            return CheckResult.skip("", "ip-reachable", "local end: " + port.subject() + " has no IPv4 address to send"
                    + " an echo from", ev);
        }
        HostFacts.Netdev n = port.netdev().get();
        ev.with("local.source", Addr.text(n.ipv4().getFirst().address()));
        try {
            InetAddress target = InetAddress.getByName(peerAddress);
            if (facts.doctor.pinger.reachable(n.name(), target, PING_TIMEOUT)) {
                return CheckResult.pass("", "ip-reachable", "local end: " + peerAddress + " answers an echo from "
                        + Addr.text(n.ipv4().getFirst().address()) + " (" + n.name() + ")", ev);
            }
            return CheckResult.finding("", "ip-reachable", Severity.ERROR, "local end: " + peerAddress
                    + " does not answer an echo from " + Addr.text(n.ipv4().getFirst().address()) + " (" + n.name()
                    + ") within " + PING_TIMEOUT.toSeconds() + " s: IP between the rail addresses is broken one way or"
                    + " the other, so RDMA CM (-R) cannot resolve or connect", ev,
                    "on both hosts: `ip route get <other end> from <own rail address>` must leave through the rail"
                            + " (per-rail table and `ip rule from`), the rail up, ARP answered on the rail (arp_ignore/arp_announce)");
        } catch (IOException e) {
            return CheckResult.skip("", "ip-reachable", "local end: could not send an echo: " + e.getMessage(), ev);
        }
    }

    private static CheckResult smoke(String name, SmokeResult r) {
        Evidence ev = new Evidence();
        r.figures().forEach(ev::with);
        if (r.ok()) {
            String figure = r.figures().containsKey("average") ? "average " + r.figures().get("average")
                    : "typical " + r.figures().getOrDefault("typical", "?");
            return CheckResult.pass("", name, name + " ran: " + r.figures().getOrDefault("iterations", "?") + " x "
                    + r.figures().getOrDefault("size", "?") + " B, " + figure, ev);
        }
        String failure = r.failure().orElse("?").lines().findFirst().orElse("?");
        ev.with("failure", failure);
        return CheckResult.finding("", name, Severity.ERROR, name + " failed: " + failure, ev,
                r.failureVerdicts().isEmpty() ? "see the message; `jperf " + name + " -d DEV HOST` against the peer's"
                        + " `jperf " + name + " -d DEV` shows the same failure with its details"
                        : "see the path findings below it");
    }

    /** The pair as a test sees it: the same checks on the records both ends exchanged. */
    private static void pathChecks(String subject, PathReport report, List<Check> out) {
        PathRecord local = report.local();
        if (report.peer().isEmpty()) {
            out.add(new Check(Layer.PEER, subject, CheckResult.skip("", "path-records", "the peer sent no path record"
                    + " (not jperf): only this end's checks", new Evidence())));
            out.add(new Check(Layer.PEER, subject, PathChecks.egressNetdev("local", local)));
            return;
        }
        PathRecord peer = report.peer().get();
        List<CheckResult> checks = new ArrayList<>(List.of(
                PathChecks.activeMtuPair(local, peer),
                PathChecks.gidTypePair(local, peer),
                PathChecks.gidFamilyPair(local, peer),
                PathChecks.destinationIsPeerGid("local", local, "peer", peer),
                PathChecks.destinationIsPeerGid("peer", peer, "local", local),
                PathChecks.egressNetdev("local", local),
                PathChecks.unboundSource("local", local),
                PathChecks.returnPath(peer),
                PathChecks.portActive("peer", peer.rdma()),
                PathChecks.netdevMtu("peer", peer.rdma(), peer.netdev()),
                PathChecks.gidType("peer", peer.rdma()),
                PathChecks.gidLinkLocal("peer", peer.rdma()),
                PathChecks.numa("peer", peer.rdma().device(), peer.numa())));
        peer.netdev().ifPresent(n -> checks.add(PathChecks.netdevUp("peer", n)));
        checks.forEach(c -> out.add(new Check(Layer.PEER, subject, c)));
    }
}
