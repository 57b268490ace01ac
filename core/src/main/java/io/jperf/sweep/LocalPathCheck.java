package io.jperf.sweep;

import io.jperf.options.TestOptions;
import io.jperf.path.GidChoice;
import io.jperf.path.PathProbe;
import io.jperf.path.PathRecord;
import io.jperf.path.TrafficClass;
import io.jperf.path.Verdict;
import io.jperf.path.Verdicts;
import io.jperf.verbs.Context;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.Rdma;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What can be learned about a sweep point's path on this host alone, without the peer: used for
 * a point that failed, to give its row a path summary and verdicts (F6 port down or no IP on the
 * RoCE netdev, F2 egress through another netdev, F1 link-local or RoCE v1 GID, F4, F7).
 *
 * <p>{@link #live()} opens the point's device ({@code -d}, else the first), queries its port,
 * picks the GID as the engine does ({@link GidChoice}: {@code -x}, else perftest's default), and probes the route to
 * the destination (the point's peer address, else the peer host); the verdicts are
 * {@code Verdicts.evaluate(local, null)}: the same checks, on the same kind of record, that
 * {@code jperf doctor} runs for each port. Nothing it finds is thrown: a device that cannot be
 * opened, a missing GID or an unresolvable peer become the outcome's {@code problem}.
 */
@FunctionalInterface
public interface LocalPathCheck {

    /** A check that learns nothing (tests, or when the host has no RDMA). */
    LocalPathCheck NONE = (choice, qosExpected) -> Outcome.EMPTY;

    /**
     * Checks this host's side of {@code choice}'s path. Must not throw.
     *
     * @param qosExpected evaluate F5 (traffic class 0 / Not-ECT)
     */
    Outcome check(SweepChoice choice, boolean qosExpected);

    /**
     * What the pre-flight check found.
     *
     * @param record   this end's path record, if the device, port and a GID could be read
     * @param verdicts findings from the record alone
     * @param problem  why no record could be made, if that is news (e.g. "GID index 5 does not exist")
     */
    record Outcome(Optional<PathRecord> record, List<Verdict> verdicts, Optional<String> problem) {
        static final Outcome EMPTY = new Outcome(Optional.empty(), List.of(), Optional.empty());

        public Outcome {
            Objects.requireNonNull(record, "record");
            Objects.requireNonNull(problem, "problem");
            verdicts = List.copyOf(verdicts);
        }

        static Outcome problem(String text) {
            return new Outcome(Optional.empty(), List.of(), Optional.of(text));
        }
    }

    /** The check on this host's devices and kernel. */
    static LocalPathCheck live() {
        return LocalPathCheck::liveCheck;
    }

    private static Outcome liveCheck(SweepChoice choice, boolean qosExpected) {
        try {
            TestOptions o = choice.options();
            DeviceInfo device;
            PortInfo port;
            try (Context ctx = Rdma.open(o.target().device())) {
                device = ctx.query();
                port = ctx.queryPort(o.target().ibPort());
            }
            GidChoice gid = GidChoice.of(device, port, o.target().gidIndex());
            if (gid.problem().isPresent()) {
                return Outcome.problem("pre-flight: " + gid.problem().get());
            }
            if (gid.gid().isEmpty()) {
                return Outcome.EMPTY; // InfiniBand without GRH: no IP path to check
            }
            InetAddress destination = InetAddress.getByName(choice.peerAddress().orElse(o.target().serverHost()));
            PathRecord record;
            try (PathProbe probe = PathProbe.live()) {
                record = probe.probe(device, port, gid.gid().get(), destination, new TrafficClass(o.params().trafficClass()));
            }
            List<Verdict> verdicts = qosExpected
                    ? Verdicts.evaluate(record, null, Verdicts.Option.QOS_EXPECTED)
                    : Verdicts.evaluate(record, null);
            return new Outcome(Optional.of(record), verdicts, Optional.empty());
        } catch (Exception | LinkageError e) {
            // UnsatisfiedLinkError and friends: no RDMA libraries here; never out of the sweep
            return Outcome.problem("pre-flight: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        }
    }
}
