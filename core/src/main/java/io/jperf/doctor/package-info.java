/**
 * {@code jperf doctor}: the layered RDMA troubleshooting walk an experienced engineer does, with
 * evidence (docs/domain.md, "The layered troubleshooting order"): link (state, carrier, speed,
 * MTU), IP (addresses, per-rail routes, source rules, default route), RDMA (devices, ports, GID
 * table, the GID a test chooses, netdev vs active MTU), QoS and counters (traffic class, ECN
 * switches, error/retransmit and CNP/ECN counters), NUMA placement, the host's plumbing (memlock,
 * kernel modules, device nodes, libraries, providers) and, against a peer's {@code jperf serve},
 * the pair (echo from the rail's address, the server, write-bw and write-lat smoke tests, both
 * ends' path records, counter changes).
 *
 * <p>{@link io.jperf.doctor.Doctor} runs the walk into a {@link io.jperf.doctor.DoctorReport};
 * {@link io.jperf.doctor.DoctorText} and {@link io.jperf.doctor.DoctorJson} write it. The path
 * checks are {@link io.jperf.path.PathChecks}' (shared with a test's verdicts and the sweep's
 * pre-flight check); the doctor adds the checks no test needs (carrier, speed, counters, memlock,
 * modules...). Everything is read through seams, so the walk runs on fixture sysfs/procfs trees.
 */
package io.jperf.doctor;
