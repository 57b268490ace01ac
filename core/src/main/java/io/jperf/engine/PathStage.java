package io.jperf.engine;

import io.jperf.path.PathJson;
import io.jperf.path.PathProbe;
import io.jperf.path.PathRecord;
import io.jperf.path.TrafficClass;
import io.jperf.path.Verdicts;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.KeyMessage;
import io.jperf.wire.ProtocolException;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records this end's path once the QPs are connected, swaps records with a jperf peer, and
 * evaluates the verdicts. Runs on the thread that will run the measurement loop, so the record's
 * CPU and NUMA node are the loop's.
 */
final class PathStage {
    private static final String FIELD = "path.record";

    private PathStage() {
    }

    /**
     * @return the report, or empty when this end has no GID (InfiniBand without GRH: no IP path)
     */
    static Optional<PathReport> run(Endpoint endpoint, KeyMessage peerKey, int trafficClass, boolean jperfPeer,
                                    ControlChannel channel, boolean qosExpected) throws IOException {
        Optional<GidEntry> gid = endpoint.gid();
        if (gid.isEmpty() || gid.get().type() == GidType.IB || !peerKey.hasGid()) {
            if (jperfPeer) {
                JperfExtension.exchange(channel, Map.of(), "path record exchange");
            }
            return Optional.empty();
        }
        InetAddress destination = io.jperf.verbs.Gid.of(peerKey.gid()).toInetAddress();
        PathRecord local;
        try (PathProbe probe = PathProbe.live()) {
            local = probe.probe(endpoint.context().query(), endpoint.port(), gid.get(), destination,
                    new TrafficClass(trafficClass));
        }
        Optional<PathRecord> peer = Optional.empty();
        if (jperfPeer) {
            Map<String, String> theirs = JperfExtension.exchange(channel, Map.of(FIELD, PathJson.toJson(local).replace('\n', ' ').strip()),
                    "path record exchange");
            String json = theirs.get(FIELD);
            if (json != null) {
                try {
                    peer = Optional.of(PathJson.read(json));
                } catch (IllegalArgumentException e) {
                    throw new ProtocolException("the peer's path record is not readable: " + e.getMessage());
                }
            }
        }
        return Optional.of(new PathReport(local, peer, Verdicts.evaluate(local, peer.orElse(null), options(qosExpected))));
    }

    /**
     * This end's findings when the test cannot connect (e.g. the ends' GIDs are of different
     * kinds): its own path towards the peer's GID, checked without the peer's record. Empty when
     * the path cannot be probed.
     */
    static List<io.jperf.path.Verdict> localVerdicts(Endpoint endpoint, io.jperf.verbs.Gid peerGid, int trafficClass,
                                                     boolean qosExpected) {
        Optional<GidEntry> gid = endpoint.gid();
        if (gid.isEmpty() || gid.get().type() == GidType.IB) {
            return List.of();
        }
        try (PathProbe probe = PathProbe.live()) {
            PathRecord local = probe.probe(endpoint.context().query(), endpoint.port(), gid.get(),
                    peerGid.toInetAddress(), new TrafficClass(trafficClass));
            return Verdicts.evaluate(local, null, options(qosExpected));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static Verdicts.Option[] options(boolean qosExpected) {
        return qosExpected ? new Verdicts.Option[] {Verdicts.Option.QOS_EXPECTED}
                : new Verdicts.Option[0];
    }
}
