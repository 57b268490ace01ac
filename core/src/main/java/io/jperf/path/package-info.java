/**
 * Path truth: the Linux path every jperf result ran on, and whether it is consistent.
 *
 * <p>{@link io.jperf.path.PathProbe} builds a {@link io.jperf.path.PathRecord} for one end of a
 * test from the verbs model ({@code io.jperf.verbs}) and the kernel: the route for the
 * (source, destination) pair and the policy rule that chose its table come from rtnetlink
 * ({@link io.jperf.path.Rtnetlink}, over {@link io.jperf.ffi.NetlinkSocket}; no {@code ip}
 * process); netdev MTU/operstate, VLAN and NUMA come from sysfs/procfs under an injectable root.
 * {@link io.jperf.path.Verdicts} checks one or two records (local, and the peer's when exchanged)
 * for the failure classes F1-F7 of docs/domain.md, with the checks of
 * {@link io.jperf.path.PathChecks}: one implementation of each check, returning a
 * {@link io.jperf.path.CheckResult} (passed with the values read, skipped, or a finding) that a
 * test's verdicts, the sweep's pre-flight check and {@code jperf doctor} share.
 * {@link io.jperf.path.PathJson} and {@link io.jperf.path.PathSummary} write them out.
 *
 * <p>Records are immutable snapshots. Probing does I/O and is meant for test setup, never for the
 * measured loop; see each class for threading.
 */
package io.jperf.path;
