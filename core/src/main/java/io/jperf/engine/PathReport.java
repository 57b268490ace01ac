package io.jperf.engine;

import io.jperf.path.PathRecord;
import io.jperf.path.Verdict;

import java.util.List;
import java.util.Optional;

/**
 * The Linux path a test ran on: this end's record, the peer's when the peer is jperf (it sends
 * it), and the verdicts computed from both. Immutable.
 *
 * @param local    this end's path record
 * @param peer     the peer's record, empty with a perftest peer
 * @param verdicts the consistency findings (F1..F7), empty when the path is consistent
 */
public record PathReport(PathRecord local, Optional<PathRecord> peer, List<Verdict> verdicts) {
    public PathReport {
        verdicts = List.copyOf(verdicts);
    }
}
