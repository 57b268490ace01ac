package io.jperf.doctor;

import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.PathChecks;
import io.jperf.path.RdmaEnd;
import io.jperf.path.Severity;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.PortInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The RDMA layer: devices present (with the reason and the options when there are none), then
 * per port its state (F6), a GID with an IP (F6), the GID table's IPv4 entries (F1), the GID a
 * test would choose (F1: RoCE v2, not link-local), and netdev MTU vs active MTU (F4).
 */
final class DeviceChecks {
    /** What to do on a host without RDMA devices: the three ways to get one. */
    static final String OPTIONS = "use a NIC with an RDMA driver (e.g. modprobe mlx5_ib, irdma, bnxt_re) on a kernel with"
            + " RDMA; or soft-RoCE over any NIC: modprobe rdma_rxe && rdma link add rxe0 type rxe netdev <eth>;"
            + " or jperf's QEMU lab with real rxe devices: lab/rdma-lab setup && lab/rdma-lab demo";

    private DeviceChecks() {
    }

    static List<Check> run(HostFacts facts) {
        List<Check> out = new ArrayList<>();
        CheckResult presence = presence(facts);
        out.add(new Check(Layer.RDMA, facts.doctor.device.orElse("-"), presence));
        if (presence.isFinding()) {
            return out;
        }
        for (DeviceInfo d : facts.devices) {
            out.add(new Check(Layer.RDMA, d.name(), device(d)));
        }
        for (HostFacts.Port p : facts.ports) {
            port(p, out);
        }
        return out;
    }

    private static CheckResult presence(HostFacts facts) {
        Evidence ev = new Evidence()
                .with("sys.class.infiniband", facts.sys.hasRdmaClass() ? facts.sys.rdmaDevices() : "absent")
                .with("module.ib_core", facts.sys.exists("sys/module/ib_core") ? "loaded" : "absent")
                .with("verbs.devices", facts.devicesProblem.isPresent() ? "-"
                        : facts.allDevices.stream().map(DeviceInfo::name).toList());
        if (facts.devicesProblem.isPresent()) {
            String error = facts.devicesProblem.get();
            ev.with("verbs.error", error.contains(". Hint:") ? error.substring(0, error.indexOf(". Hint:")) : error);
            String why = !facts.sys.hasRdmaClass()
                    ? "this kernel has no RDMA support loaded (" + facts.sys.path("sys/class/infiniband") + " does not exist)"
                    : "the RDMA devices cannot be listed: " + facts.devicesProblem.get();
            return CheckResult.finding("F6", "rdma-devices", Severity.ERROR, "no usable RDMA device: " + why, ev, OPTIONS);
        }
        if (facts.allDevices.isEmpty()) {
            return CheckResult.finding("F6", "rdma-devices", Severity.ERROR,
                    "no RDMA device is registered" + (facts.sys.hasRdmaClass() ? " (the kernel has RDMA support)" : ""),
                    ev, OPTIONS);
        }
        if (facts.devices.isEmpty()) {
            return CheckResult.finding("F6", "rdma-devices", Severity.ERROR, "no RDMA device named '"
                    + facts.doctor.device.orElse("") + "'; devices here: "
                    + String.join(", ", facts.allDevices.stream().map(DeviceInfo::name).toList()), ev,
                    "pass one of those to -d, or leave -d out to walk them all");
        }
        return CheckResult.pass("F6", "rdma-devices", facts.allDevices.size() + " RDMA device(s): "
                + String.join(", ", facts.allDevices.stream().map(DeviceInfo::name).toList()), ev);
    }

    private static CheckResult device(DeviceInfo d) {
        Evidence ev = new Evidence().with("local.device", d.name()).with("local.ports", d.ports().size())
                .with("local.firmware", d.firmware().isEmpty() ? "-" : d.firmware())
                .with("local.vendor", String.format(Locale.ROOT, "0x%x/%d", d.vendorId(), d.vendorPartId()))
                .with("local.maxQp", d.maxQp()).with("local.maxMrSize", d.maxMrSize());
        return CheckResult.pass("", "device", "local end: " + d.name() + " opens through verbs, " + d.ports().size()
                + " port(s)", ev);
    }

    private static void port(HostFacts.Port p, List<Check> out) {
        String s = p.subject();
        PortInfo port = p.port();
        java.util.Optional<String> netdev = p.netdev().map(HostFacts.Netdev::name);
        CheckResult state = PathChecks.portActive("local", p.device().name(), port.number(), port.state(), p.roce(), netdev);
        out.add(new Check(Layer.RDMA, s, withEvidence(state, "local.linkLayer", port.linkLayer().perftestName(),
                "local.rate", port.rateGbps() > 0 ? port.rateGbps() + " Gb/s" : "-",
                "local.activeMtu", port.activeMtu().bytes(), "local.netdev", netdev.orElse("-"))));
        if (!p.roce()) {
            return;
        }
        out.add(new Check(Layer.RDMA, s, PathChecks.ipGid("local", p.device().name(), port.number(),
                RdmaEnd.hasIpGid(port), netdev)));
        if (p.netdev().isPresent()) {
            out.add(new Check(Layer.RDMA, s, PathChecks.ipv4Gids("local", p.device().name(), port, netdev.get(),
                    p.netdev().get().state().addresses())));
        }
        if (p.gid().problem().isPresent()) {
            out.add(new Check(Layer.RDMA, s, CheckResult.finding("F1", "gid-choice", Severity.ERROR,
                    "local end: " + p.gid().problem().get(), new Evidence().with("local.gids", port.gids().size()),
                    "give the netdev an IP address and bring it up; then `jperf devices -d " + p.device().name() + "`")));
        } else if (p.end().isPresent()) {
            RdmaEnd end = p.end().get();
            GidEntry gid = p.gid().gid().orElseThrow();
            out.add(new Check(Layer.RDMA, s, CheckResult.pass("F1", "gid-choice", "local end: tests choose GID "
                    + gid.index() + " " + gid.gid() + gid.ipAddress().map(a -> " = " + io.jperf.path.Addr.text(a)).orElse("")
                    + " (" + gid.type().label() + ", perftest's default)",
                    new Evidence().with("local.gid.index", gid.index()).with("local.gid", gid.gid())
                            .with("local.gid.type", gid.type().label()).with("local.gid.netdev", gid.netdev().orElse("-")))));
            out.add(new Check(Layer.RDMA, s, PathChecks.gidType("local", end)));
            out.add(new Check(Layer.RDMA, s, PathChecks.gidLinkLocal("local", end)));
        }
        out.add(new Check(Layer.RDMA, s, PathChecks.netdevMtu("local", port.activeMtu(),
                p.netdev().map(HostFacts.Netdev::state))));
    }

    /** The same outcome with more values read (key, value pairs). */
    static CheckResult withEvidence(CheckResult r, Object... keyValues) {
        Evidence ev = new Evidence();
        ev.putAll(r.evidence());
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            ev.with(String.valueOf(keyValues[i]), keyValues[i + 1]);
        }
        return new CheckResult(r.id(), r.name(), r.status(), r.summary(), ev, r.fixHint(), r.finding());
    }
}
