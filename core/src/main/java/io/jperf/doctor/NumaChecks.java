package io.jperf.doctor;

import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.NumaPlacement;
import io.jperf.path.PathChecks;
import io.jperf.verbs.DeviceInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NUMA placement, per device: the NIC's node and the node of the CPU this walk runs on (F7, the
 * check a test makes for its loop thread): a test started the same way would run there too.
 */
final class NumaChecks {
    private NumaChecks() {
    }

    static List<Check> run(HostFacts facts) {
        List<Check> out = new ArrayList<>();
        if (facts.devices.isEmpty()) {
            out.add(new Check(Layer.NUMA, "-", CheckResult.skip("F7", "numa", "no RDMA device to place",
                    new Evidence().with("local.cpu", facts.cpu))));
            return out;
        }
        for (DeviceInfo d : facts.devices) {
            Optional<String> netdev = facts.ports.stream().filter(p -> p.device() == d).map(HostFacts.Port::netdev)
                    .flatMap(Optional::stream).map(HostFacts.Netdev::name).findFirst();
            int nicNode = facts.sys.nicNumaNode(d.name(), netdev);
            NumaPlacement placement = new NumaPlacement(nicNode, facts.cpu, facts.sys.cpuNode(facts.cpu));
            out.add(new Check(Layer.NUMA, d.name(), DeviceChecks.withEvidence(PathChecks.numa("local", d.name(), placement),
                    "local.nic.cpus", facts.sys.nodeCpuList(nicNode).orElse("-"))));
        }
        return out;
    }
}
