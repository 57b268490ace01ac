package io.jperf.doctor;

import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.PathChecks;
import io.jperf.path.Severity;
import io.jperf.path.TrafficClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * QoS and counters, per RoCE port: the traffic class tests will send with (F5, with
 * {@code --qos-expected}) and the netdev's ECN switches where the driver exposes them; then the
 * port's counters: errors and retransmits, congestion (CNP, ECN marks), traffic. Counts are since
 * the driver loaded; the pair check reports their change during its own smoke tests.
 */
final class QosChecks {
    static final String COUNTER_FIX = "the counts are since the driver loaded: rising values during a test mean loss or"
            + " retransmits on the path (MTU, PFC/ECN configuration, cabling, a congested or flapping link); `jperf"
            + " doctor --peer HOST` shows how much they grow during its own smoke tests";

    private QosChecks() {
    }

    static List<Check> run(HostFacts facts) {
        List<Check> out = new ArrayList<>();
        if (facts.ports.isEmpty()) {
            out.add(new Check(Layer.QOS, "-", CheckResult.skip("", "counters", "no RDMA port to read counters of",
                    new Evidence())));
            return out;
        }
        for (HostFacts.Port p : facts.ports) {
            if (p.roce()) {
                out.add(new Check(Layer.QOS, p.subject(), trafficClass(facts, p)));
            }
            Map<String, Long> counters = PortCounters.read(facts.sys, p.device().name(), p.port().number());
            out.addAll(counterChecks(p.subject(), counters));
        }
        return out;
    }

    private static CheckResult trafficClass(HostFacts facts, HostFacts.Port p) {
        Evidence ecn = new Evidence();
        p.netdev().ifPresent(n -> {
            for (String side : List.of("roce_np", "roce_rp")) {
                String dir = "sys/class/net/" + n.name() + "/ecn/" + side + "/enable";
                List<String> prios = facts.sys.list(dir).stream()
                        .filter(prio -> facts.sys.read(dir + "/" + prio).orElse("0").equals("1")).toList();
                if (!facts.sys.list(dir).isEmpty()) {
                    ecn.with("local.ecn." + side + ".enabledPriorities", prios);
                }
            }
        });
        TrafficClass tc = new TrafficClass(facts.doctor.trafficClass);
        if (!facts.doctor.qosExpected) {
            Evidence ev = new Evidence().with("local.trafficClass", tc.value()).with("local.dscp", tc.dscp())
                    .with("local.ecn", tc.ecn().label());
            ev.putAll(ecn);
            return CheckResult.skip("F5", "traffic-class", "local end: tests send traffic class " + tc.value()
                    + "; whether that is right depends on the fabric (give --qos-expected where it has a lossless/ECN class)", ev);
        }
        return DeviceChecks.withEvidence(PathChecks.trafficClass("local", tc),
                ecn.entrySet().stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue())).toArray());
    }

    /** The three counter checks of one port (or their change during a test, with {@code during}). */
    static List<Check> counterChecks(String subject, Map<String, Long> counters) {
        List<Check> out = new ArrayList<>();
        if (counters.isEmpty()) {
            out.add(new Check(Layer.QOS, subject, CheckResult.skip("", "error-counters",
                    "local end: the port exposes no counters (no counters/ or hw_counters/ in sysfs)", new Evidence())));
            return out;
        }
        long packets = PortCounters.packets(counters);
        out.add(new Check(Layer.QOS, subject, counters("error-counters", PortCounters.of(counters, PortCounters.Kind.ERROR),
                "errors, drops, retries or out-of-sequence packets", "", packets)));
        out.add(new Check(Layer.QOS, subject, counters("congestion-counters",
                PortCounters.of(counters, PortCounters.Kind.CONGESTION), "congestion notifications (CNP) or ECN marks", "",
                packets)));
        SequencedMap<String, Long> traffic = PortCounters.of(counters, PortCounters.Kind.TRAFFIC);
        Evidence ev = evidence(traffic);
        out.add(new Check(Layer.QOS, subject, traffic.isEmpty()
                ? CheckResult.skip("", "traffic-counters", "local end: no traffic counters", ev)
                : CheckResult.pass("", "traffic-counters", "local end: " + traffic.size() + " traffic counters read", ev)));
        return out;
    }

    /**
     * One counter class: SKIP when the port has none, PASS when all are 0, WARN with the non-zero ones.
     *
     * @param when    how the summary qualifies the values, e.g. {@code " during the smoke tests"}; empty for totals
     * @param packets the packets sent and received over the same period, -1 when the port does not count them
     */
    static CheckResult counters(String name, SequencedMap<String, Long> values, String what, String when, long packets) {
        Evidence ev = evidence(values);
        if (packets >= 0) {
            ev.with("local.packets", packets);
        }
        if (values.isEmpty()) {
            return CheckResult.skip("", name, "local end: the port has no counter of " + what, ev);
        }
        List<String> nonZero = values.entrySet().stream().filter(e -> e.getValue() != 0)
                .map(e -> e.getKey() + "=" + e.getValue()).toList();
        if (nonZero.isEmpty()) {
            return CheckResult.pass("", name, "local end: " + values.size() + " counters of " + what + ", all 0" + when, ev);
        }
        return CheckResult.finding("", name, Severity.WARNING, "local end: " + what + when + ": "
                + String.join(", ", nonZero) + (packets > 0 ? " (against " + packets + " packets sent and received)" : ""),
                ev, COUNTER_FIX);
    }

    private static Evidence evidence(Map<String, Long> values) {
        Evidence ev = new Evidence();
        values.forEach((k, v) -> ev.with("local." + k, v));
        return ev;
    }
}
