package io.jperf.path;

/**
 * Where the NIC and the test thread sit in the NUMA topology. -1 means "not known / no NUMA"
 * (a single-node machine, a virtual device, or a missing sysfs file). Immutable.
 *
 * @param nicNode the NIC's node ({@code /sys/class/infiniband/<dev>/device/numa_node}, falling
 *                back to {@code /sys/class/net/<if>/device/numa_node})
 * @param cpu     the CPU the probing thread ran on ({@code sched_getcpu}) when the record was made
 * @param cpuNode the node of that CPU ({@code /sys/devices/system/node/nodeN/cpulist})
 */
public record NumaPlacement(int nicNode, int cpu, int cpuNode) {

    /** {@code true} when both nodes are known and differ. */
    public boolean crossNode() {
        return nicNode >= 0 && cpuNode >= 0 && nicNode != cpuNode;
    }
}
