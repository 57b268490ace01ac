package io.jperf.doctor;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.Severity;
import io.jperf.path.Sysfs;
import io.jperf.verbs.DeviceInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The host's RDMA plumbing: the memlock limit against what tests register, the kernel modules,
 * the verbs device nodes, the verbs and RDMA CM libraries, and a user-space provider for every
 * kernel device.
 */
final class SystemChecks {
    /** {@code CAP_IPC_LOCK}: memory registration ignores {@code RLIMIT_MEMLOCK}. */
    private static final int CAP_IPC_LOCK = 14;
    private static final long PAGE = 4096;
    /** Driver modules that register RDMA devices (the common ones). */
    private static final List<String> DRIVERS = List.of("mlx5_ib", "mlx4_ib", "irdma", "bnxt_re", "efa", "qedr",
            "hns_roce_hw_v2", "erdma", "mana_ib", "ocrdma", "cxgb4", "iw_cxgb4", "vmw_pvrdma", "rdma_rxe", "siw", "hfi1",
            "ib_qib");
    /** Where distributions install libibverbs' providers. */
    private static final List<String> PROVIDER_DIRS = List.of("usr/lib/x86_64-linux-gnu/libibverbs",
            "usr/lib/aarch64-linux-gnu/libibverbs", "usr/lib64/libibverbs", "usr/lib/libibverbs");

    private SystemChecks() {
    }

    static List<Check> run(HostFacts facts) {
        List<Check> out = new ArrayList<>();
        out.add(new Check(Layer.SYSTEM, "memlock", memlock(facts.sys)));
        out.add(new Check(Layer.SYSTEM, "modules", modules(facts.sys)));
        out.add(new Check(Layer.SYSTEM, "/dev/infiniband", deviceNodes(facts.sys)));
        out.add(new Check(Layer.SYSTEM, "libraries", libraries(facts.doctor.libraries.problem())));
        out.add(new Check(Layer.SYSTEM, "providers", providers(facts)));
        return out;
    }

    /** Bytes a test's buffer registers: two slices of max(size, page) per QP, as the engine allocates. */
    static long registeredBytes(TestParameters p) {
        long slice = (Math.max(p.maxMessageSize(), PAGE) + PAGE - 1) / PAGE * PAGE;
        return slice * 2 * p.numQps();
    }

    static CheckResult memlock(Sysfs sys) {
        long defaults = registeredBytes(TestOptions.builder(TestKind.WRITE_BW).build().params());
        long allSizes = registeredBytes(TestOptions.builder(TestKind.WRITE_BW).allSizes(true).build().params());
        Evidence ev = new Evidence();
        OptionalLong caps = sys.effectiveCapabilities();
        boolean ipcLock = caps.isPresent() && (caps.getAsLong() & (1L << CAP_IPC_LOCK)) != 0;
        ev.with("local.CAP_IPC_LOCK", caps.isPresent() ? ipcLock : "unknown");
        Optional<Sysfs.Limit> limit = sys.memlockLimits();
        ev.with("local.memlock.soft", limit.map(l -> text(l.soft())).orElse("unknown"))
                .with("local.memlock.hard", limit.map(l -> text(l.hard())).orElse("unknown"))
                .with("local.need.default", defaults).with("local.need.allSizes", allSizes);
        if (ipcLock) {
            return CheckResult.pass("", "memlock", "local end: CAP_IPC_LOCK: memory registration is not limited by memlock", ev);
        }
        if (limit.isEmpty()) {
            return CheckResult.skip("", "memlock", "local end: the memlock limit is not readable", ev);
        }
        long soft = limit.get().soft();
        String raise = "raise it: `ulimit -l unlimited` in the shell that starts jperf, or memlock in"
                + " /etc/security/limits.conf (LimitMEMLOCK= for a systemd service)";
        if (soft < defaults) {
            return CheckResult.finding("", "memlock", Severity.ERROR, "local end: memlock " + text(soft)
                    + " is below the " + defaults + " bytes a default write test registers: registration fails (ENOMEM)",
                    ev, raise);
        }
        if (soft < allSizes) {
            return CheckResult.finding("", "memlock", Severity.WARNING, "local end: memlock " + text(soft)
                    + " holds a default test but not -a (" + allSizes + " bytes per QP, more with -q) or large -s", ev, raise);
        }
        return CheckResult.pass("", "memlock", "local end: memlock " + text(soft) + " holds -a (" + allSizes
                + " bytes per QP)", ev);
    }

    private static String text(long bytes) {
        return bytes == Long.MAX_VALUE ? "unlimited" : Long.toString(bytes);
    }

    static CheckResult modules(Sysfs sys) {
        Set<String> loaded = new TreeSet<>();
        for (String m : List.of("ib_core", "ib_uverbs", "rdma_cm", "rdma_ucm", "ib_cm", "iw_cm")) {
            if (sys.exists("sys/module/" + m)) {
                loaded.add(m);
            }
        }
        List<String> drivers = DRIVERS.stream().filter(m -> sys.exists("sys/module/" + m)).toList();
        Evidence ev = new Evidence().with("local.modules", loaded).with("local.drivers", drivers);
        if (!loaded.contains("ib_core")) {
            return CheckResult.finding("", "modules", Severity.ERROR, "local end: the RDMA core (ib_core) is not"
                    + " loaded: this kernel has no RDMA", ev, "a kernel built with RDMA (CONFIG_INFINIBAND) loads ib_core"
                    + " and ib_uverbs with the NIC's RDMA driver or rdma_rxe (see the RDMA layer)");
        }
        if (!loaded.contains("ib_uverbs")) {
            return CheckResult.finding("", "modules", Severity.ERROR, "local end: ib_uverbs is not loaded: user space"
                    + " (libibverbs) cannot reach the devices", ev, "modprobe ib_uverbs");
        }
        if (drivers.isEmpty()) {
            return CheckResult.finding("", "modules", Severity.WARNING, "local end: no RDMA device driver module is"
                    + " loaded (or it is built in)", ev, "load the NIC's RDMA driver (modprobe mlx5_ib, irdma, bnxt_re...)"
                    + " or soft-RoCE (modprobe rdma_rxe)");
        }
        if (!loaded.contains("rdma_ucm")) {
            return CheckResult.finding("", "modules", Severity.WARNING, "local end: rdma_ucm is not loaded: RDMA CM"
                    + " (-R) is not available to user space", ev, "modprobe rdma_ucm");
        }
        return CheckResult.pass("", "modules", "local end: " + String.join(", ", loaded) + "; drivers "
                + String.join(", ", drivers), ev);
    }

    static CheckResult deviceNodes(Sysfs sys) {
        List<String> nodes = sys.list("dev/infiniband");
        List<String> uverbs = nodes.stream().filter(n -> n.startsWith("uverbs")).toList();
        Evidence ev = new Evidence().with("local.dev.infiniband", nodes);
        if (uverbs.isEmpty()) {
            return CheckResult.finding("", "device-nodes", Severity.ERROR, "local end: no /dev/infiniband/uverbs*:"
                    + " user space cannot open any RDMA device", ev, sys.exists("sys/module/ib_uverbs")
                    ? "no device is registered, or udev did not create the nodes (check `ls -l /dev/infiniband`, the"
                    + " container's device list)" : "modprobe ib_uverbs (the NIC's RDMA driver or rdma_rxe needs it;"
                    + " see the RDMA layer)");
        }
        if (!nodes.contains("rdma_cm")) {
            return CheckResult.finding("", "device-nodes", Severity.WARNING, "local end: " + uverbs.size()
                    + " verbs node(s) but no /dev/infiniband/rdma_cm: RDMA CM (-R) cannot be used", ev, "modprobe rdma_ucm");
        }
        return CheckResult.pass("", "device-nodes", "local end: " + uverbs.size() + " verbs node(s) and rdma_cm", ev);
    }

    static CheckResult libraries(Optional<String> problem) {
        Evidence ev = new Evidence().with("local.libraries", "libibverbs.so.1, librdmacm.so.1")
                .with("local.problem", problem.orElse("-"));
        if (problem.isPresent()) {
            return CheckResult.finding("", "libraries", Severity.ERROR, "local end: " + problem.get(), ev,
                    "install rdma-core's libraries (Debian: libibverbs1 librdmacm1 ibverbs-providers)");
        }
        return CheckResult.pass("", "libraries", "local end: libibverbs.so.1 and librdmacm.so.1 load", ev);
    }

    static CheckResult providers(HostFacts facts) {
        List<String> libs = new ArrayList<>();
        for (String dir : PROVIDER_DIRS) {
            facts.sys.glob(dir, "lib*-rdmav*.so").forEach(f -> libs.add(f.substring(3, f.indexOf("-rdmav"))));
        }
        Evidence ev = new Evidence().with("local.providers", libs);
        List<String> kernel = facts.sys.rdmaDevices();
        ev.with("local.kernelDevices", kernel);
        if (facts.devicesProblem.isEmpty()) {
            List<String> opened = facts.allDevices.stream().map(DeviceInfo::name).toList();
            List<String> orphans = kernel.stream().filter(k -> !opened.contains(k)).toList();
            ev.with("local.verbsDevices", opened);
            if (!orphans.isEmpty()) {
                return CheckResult.finding("", "providers", Severity.ERROR, "local end: the kernel has " + orphans
                        + " but libibverbs lists no such device: its user-space provider is missing", ev,
                        "install the provider (Debian: ibverbs-providers; other distributions: rdma-core)");
            }
        }
        if (libs.isEmpty()) {
            return CheckResult.finding("", "providers", kernel.isEmpty() ? Severity.WARNING : Severity.ERROR,
                    "local end: no libibverbs provider is installed (looked in " + PROVIDER_DIRS + ")", ev,
                    "install ibverbs-providers (Debian) or rdma-core");
        }
        return CheckResult.pass("", "providers", "local end: " + libs.size() + " provider(s) installed"
                + (kernel.isEmpty() ? "" : "; every kernel RDMA device opens through verbs"), ev);
    }
}
