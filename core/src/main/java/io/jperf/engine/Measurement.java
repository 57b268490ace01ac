package io.jperf.engine;

import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;

import java.io.IOException;
import java.util.List;

/**
 * The measuring part of a session, after both ends are connected. Lifecycle: {@link #beforeLastExchange}, then
 * {@link #run}, once each; {@link #close} frees what they allocated, whether they ran or failed (idempotent).
 * Threading: confined to the test thread.
 */
interface Measurement extends AutoCloseable {
    record Outcome(List<BandwidthResult> bandwidth, List<LatencyResult> latency) {
    }

    /**
     * Work this end does alone before the last exchange with the peer ({@link
     * io.jperf.wire.PerftestHandshake#barrier()}), while the peer waits in it: a perftest peer starts its
     * measured rounds right after that exchange.
     */
    default void beforeLastExchange() {
    }

    Outcome run() throws IOException;

    @Override
    default void close() {
    }

    /** The work request opcode of the test's verb (for ATOMIC: of its {@code -A} operation). */
    static io.jperf.datapath.WorkRequestList.Opcode opcode(io.jperf.options.TestOptions options) {
        return switch (options.params().kind().verb()) {
            case WRITE -> io.jperf.datapath.WorkRequestList.Opcode.RDMA_WRITE;
            case READ -> io.jperf.datapath.WorkRequestList.Opcode.RDMA_READ;
            case SEND -> io.jperf.datapath.WorkRequestList.Opcode.SEND;
            case ATOMIC -> options.params().atomicType() == io.jperf.options.AtomicType.CMP_AND_SWAP
                    ? io.jperf.datapath.WorkRequestList.Opcode.ATOMIC_CMP_AND_SWP
                    : io.jperf.datapath.WorkRequestList.Opcode.ATOMIC_FETCH_AND_ADD;
        };
    }

    /**
     * Refuses a peer buffer that atomics cannot target: an atomic operation works on an aligned 64-bit word, and
     * a misaligned remote address fails every request with a completion error.
     */
    static void requireAtomicAlignment(io.jperf.options.TestOptions options,
                                       List<io.jperf.wire.KeyMessage> remote) {
        if (!options.params().kind().verb().isAtomic()) {
            return;
        }
        for (io.jperf.wire.KeyMessage k : remote) {
            if (k.vaddr() % io.jperf.options.Verb.ATOMIC_SIZE != 0) {
                throw new TestFailedException("the peer's buffer address 0x" + Long.toHexString(k.vaddr())
                        + " is not 8-byte aligned: atomic operations need an aligned 64-bit word (check the peer's"
                        + " build; perftest and jperf align their buffers to the page)");
            }
        }
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
