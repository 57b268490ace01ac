package io.jperf.engine;

import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;

import java.io.IOException;
import java.util.List;

/** The measuring part of a session, after both ends are connected. */
interface Measurement {
    record Outcome(List<BandwidthResult> bandwidth, List<LatencyResult> latency) {
    }

    Outcome run() throws IOException;

    /** The work request opcode that carries {@code verb}. */
    static io.jperf.datapath.WorkRequestList.Opcode opcode(io.jperf.options.Verb verb) {
        return switch (verb) {
            case WRITE -> io.jperf.datapath.WorkRequestList.Opcode.RDMA_WRITE;
            case READ -> io.jperf.datapath.WorkRequestList.Opcode.RDMA_READ;
            case SEND -> io.jperf.datapath.WorkRequestList.Opcode.SEND;
        };
    }

    /** Turns a failed loop into an exception that says what happened and what to check. */
    static TestFailedException failure(String what, CompletionErrors errors, boolean stalled, java.time.Duration timeout) {
        if (errors.any()) {
            return new TestFailedException(what + ": " + errors.describe());
        }
        if (stalled) {
            return new TestFailedException(what + ": no progress for " + timeout.toSeconds() + " s (the peer stopped"
                    + " answering: check it is still running, and that the path between the GIDs works both ways)");
        }
        return new TestFailedException(what + " failed");
    }
}
