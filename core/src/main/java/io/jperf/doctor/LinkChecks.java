package io.jperf.doctor;

import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.PathChecks;
import io.jperf.path.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * The link layer, per netdev: operstate (the F6 check tests run), carrier, speed, MTU. The netdevs
 * are the RDMA ports' ({@code -d} limits them); on a host without RDMA devices, its NICs.
 */
final class LinkChecks {
    private LinkChecks() {
    }

    static List<Check> run(HostFacts facts) {
        List<Check> out = new ArrayList<>();
        if (facts.netdevs.isEmpty()) {
            String why = !facts.devices.isEmpty() ? "the RDMA ports have no netdev (InfiniBand)"
                    : facts.doctor.device.isPresent() ? "no device named '" + facts.doctor.device.get() + "' to walk"
                    : "no NIC found under " + facts.sys.path("sys/class/net") + " (only virtual links)";
            out.add(new Check(Layer.LINK, "-", CheckResult.skip("", "netdevs", why, new Evidence())));
        }
        for (HostFacts.Netdev n : facts.netdevs) {
            out.add(new Check(Layer.LINK, n.name(), PathChecks.netdevUp("local", n.state())));
            out.add(new Check(Layer.LINK, n.name(), carrier(n)));
            out.add(new Check(Layer.LINK, n.name(), speed(n)));
            out.add(new Check(Layer.LINK, n.name(), mtu(n)));
        }
        return out;
    }

    static CheckResult carrier(HostFacts.Netdev n) {
        Evidence ev = new Evidence().with("local.netdev", n.name())
                .with("local.carrier", n.carrier().isPresent() ? n.carrier().getAsInt() : "unreadable")
                .with("local.operstate", n.state().operstate());
        if (n.carrier().isEmpty()) {
            return CheckResult.skip("", "carrier", "local end: " + n.name() + " gives no carrier while it is "
                    + n.state().operstate() + " (the kernel reads carrier only on a link that is up)", ev);
        }
        if (n.carrier().getAsInt() == 1) {
            return CheckResult.pass("", "carrier", "local end: " + n.name() + " has carrier", ev);
        }
        return CheckResult.finding("", "carrier", Severity.ERROR, "local end: " + n.name()
                + " is administratively up but has no carrier: nothing is linked at the other end", ev,
                "check the cable or transceiver and the switch port (enabled, same speed/FEC), or the peer NIC");
    }

    static CheckResult speed(HostFacts.Netdev n) {
        Evidence ev = new Evidence().with("local.netdev", n.name())
                .with("local.speedMbps", n.speedMbps().isPresent() ? n.speedMbps().getAsInt() : "unreadable");
        if (n.speedMbps().isEmpty() || n.speedMbps().getAsInt() <= 0) {
            return CheckResult.skip("", "speed", "local end: " + n.name() + " reports no link speed"
                    + (n.carrier().orElse(1) == 1 ? " (a virtual NIC, or a driver that does not say)" : " (no carrier)"), ev);
        }
        int mbps = n.speedMbps().getAsInt();
        return CheckResult.pass("", "speed", "local end: " + n.name() + " links at " + (mbps >= 1000 && mbps % 1000 == 0
                ? mbps / 1000 + " Gb/s" : mbps + " Mb/s"), ev);
    }

    static CheckResult mtu(HostFacts.Netdev n) {
        int mtu = n.state().mtu();
        Evidence ev = new Evidence().with("local.netdev", n.name()).with("local.mtu", mtu);
        if (mtu <= 0) {
            return CheckResult.skip("", "mtu", "local end: the MTU of " + n.name() + " is not readable", ev);
        }
        if (!n.roce()) {
            return CheckResult.pass("", "mtu", "local end: " + n.name() + " MTU " + mtu, ev);
        }
        int ib = PathChecks.largestFitting(mtu);
        ev.with("local.roceMtu", ib);
        return CheckResult.pass("", "mtu", "local end: " + n.name() + " MTU " + mtu + " carries RoCE MTU " + ib
                + " (IB MTU + " + PathChecks.ROCE_HEADER_BYTES + " header bytes)", ev);
    }
}
