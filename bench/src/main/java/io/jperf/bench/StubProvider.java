package io.jperf.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The C stub provider ({@code src/main/c/stub_provider.c}, built by Maven into
 * {@code bench/target/native/libjperfstub.so}): a fake, always-ready verbs device whose
 * {@code ops.post_send}/{@code ops.poll_cq} are C functions, so jperf's critical downcalls
 * ({@code io.jperf.ffi.InlineVerbs}) can call them. Each instance owns one fake
 * {@code ibv_context} + {@code ibv_qp} + {@code ibv_cq}; every signaled send work request
 * yields one successful completion with its wr_id.
 *
 * <p>The library is found, in order: the {@value #LIBRARY_PROPERTY} system property; {@code
 * native/libjperfstub.so} next to the jar or classes directory this class was loaded from
 * (bench/target); {@code bench/target/native/libjperfstub.so} under the working directory; the
 * copy inside benchmarks.jar, extracted to a temporary file.
 *
 * <p>Threading: one instance is driven by one thread at a time. Lifecycle: {@link #close()}
 * frees the native objects; the segments returned by {@link #qp()} etc. are invalid after it.
 */
@SuppressWarnings("restricted")
public final class StubProvider implements AutoCloseable {
    /** System property naming the stub library file. */
    public static final String LIBRARY_PROPERTY = "jperf.stub";
    static final String LIBRARY_NAME = "libjperfstub.so";
    private static final String RESOURCE = "native/" + LIBRARY_NAME;

    /** The stub's counters ({@code enum jperf_stub_counter_id}). */
    public enum Counter {
        /** {@code ops.post_send} calls, one per posted list. */
        POST_SEND_CALLS(0),
        /** Send work requests accepted, every WR of every list. */
        POSTED_WRS(1),
        /** Accepted send work requests that were signaled. */
        SIGNALED_WRS(2),
        /** Completions generated (queued in the CQ ring). */
        COMPLETIONS(3),
        /** Completions returned by {@code poll_cq}. */
        POLLED(4),
        /** {@code ops.poll_cq} calls, including empty polls. */
        POLL_CQ_CALLS(5),
        /** Send WRs refused with ENOMEM because the CQ ring was full. */
        REJECTED_WRS(6),
        /** Receive WRs accepted by {@code ops.post_recv}. */
        POSTED_RECVS(7),
        /** {@code ops.req_notify_cq} calls. */
        NOTIFY_CALLS(8),
        /** SENDs delivered to a posted receive ({@link #deliverSends} on). */
        DELIVERED_SENDS(9),
        /** SENDs refused because no receive was posted ({@link #deliverSends} on). */
        RNR(10);

        final int id;

        Counter(int id) {
            this.id = id;
        }
    }

    private static final Path LIBRARY = locate();
    private static final SymbolLookup LOOKUP = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private static final MethodHandle CREATE = handle("jperf_stub_create",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle DESTROY = handle("jperf_stub_destroy",
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
    private static final MethodHandle CONTEXT = handle("jperf_stub_context",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), CRITICAL);
    private static final MethodHandle QP = handle("jperf_stub_qp",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), CRITICAL);
    private static final MethodHandle CQ = handle("jperf_stub_cq",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), CRITICAL);
    private static final MethodHandle COUNTER = handle("jperf_stub_counter",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), CRITICAL);
    private static final MethodHandle CQ_PENDING = handle("jperf_stub_cq_pending",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS), CRITICAL);
    private static final MethodHandle RESET = handle("jperf_stub_reset",
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS), CRITICAL);
    /** Not critical: one call runs a whole loop (milliseconds). */
    private static final MethodHandle C_LOOP = handle("jperf_stub_c_loop",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle C_PERFTEST_LOOP = handle("jperf_stub_c_perftest_loop",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private static final MethodHandle SET_EXECUTE_WRITES = handle("jperf_stub_set_execute_writes",
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT), CRITICAL);
    private static final MethodHandle SET_EXECUTE_ATOMICS = handle("jperf_stub_set_execute_atomics",
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT), CRITICAL);
    private static final MethodHandle SET_DELIVER_SENDS = handle("jperf_stub_set_deliver_sends",
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT), CRITICAL);
    private static final MethodHandle RECV_PENDING = handle("jperf_stub_recv_pending",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS), CRITICAL);
    private static final MethodHandle C_LAT_LOOP = handle("jperf_stub_c_lat_loop",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    private final MemorySegment stub;
    private final MemorySegment context;
    private final MemorySegment qp;
    private final MemorySegment cq;
    private final int cqDepth;
    private boolean closed;

    private StubProvider(MemorySegment stub, int cqDepth) throws Throwable {
        this.stub = stub;
        this.cqDepth = cqDepth;
        this.context = (MemorySegment) CONTEXT.invokeExact(stub);
        this.qp = (MemorySegment) QP.invokeExact(stub);
        this.cq = (MemorySegment) CQ.invokeExact(stub);
    }

    /** The largest CQ depth {@code jperf_stub_create} accepts. */
    public static final int MAX_CQ_DEPTH = 1 << 24;

    /** A new stub whose CQ ring holds {@code cqDepth} completions. */
    public static StubProvider create(int cqDepth) {
        if (cqDepth < 1 || cqDepth > MAX_CQ_DEPTH) {
            throw new IllegalArgumentException("the stub CQ depth must be 1.." + MAX_CQ_DEPTH + ", not " + cqDepth);
        }
        try {
            MemorySegment stub = (MemorySegment) CREATE.invokeExact(cqDepth);
            if (stub.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("jperf_stub_create(" + cqDepth + ") returned NULL");
            }
            return new StubProvider(stub, cqDepth);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The library file in use. */
    public static Path library() {
        return LIBRARY;
    }

    /** An exported symbol of the stub library (e.g. {@code jperf_stub_noop}). */
    public static MemorySegment symbol(String name) {
        return LOOKUP.find(name).orElseThrow(
                () -> new IllegalStateException(name + " not found in " + LIBRARY));
    }

    /** The fake {@code struct ibv_context *}. */
    public MemorySegment context() {
        ensureOpen();
        return context;
    }

    /** The fake {@code struct ibv_qp *}, for {@code InlineVerbs.postSendFn} and post_send. */
    public MemorySegment qp() {
        ensureOpen();
        return qp;
    }

    /** The fake {@code struct ibv_cq *}, for {@code InlineVerbs.pollCqFn} and poll_cq. */
    public MemorySegment cq() {
        ensureOpen();
        return cq;
    }

    public int cqDepth() {
        return cqDepth;
    }

    public long counter(Counter counter) {
        ensureOpen();
        try {
            return (long) COUNTER.invokeExact(stub, counter.id);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Completions queued and not yet polled. */
    public int cqPending() {
        ensureOpen();
        try {
            return (int) CQ_PENDING.invokeExact(stub);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Zeroes the counters and empties the CQ ring. */
    public void reset() {
        ensureOpen();
        try {
            RESET.invokeExact(stub);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Runs the C baseline ({@code jperf_stub_c_loop}): perftest's write_bw post/poll loop in C
     * against this stub. Same semantics as {@link PostPollLoop#run}.
     *
     * @return the elapsed nanoseconds measured in C (CLOCK_MONOTONIC)
     * @throws IllegalStateException when the C loop reports an error
     */
    public long cLoop(long iterations, int postList, int cqMod, int txDepth, int size) {
        return runCLoop(C_LOOP, "jperf_stub_c_loop", iterations, postList, cqMod, txDepth, size);
    }

    /**
     * Runs {@code jperf_stub_c_perftest_loop}: {@link #cLoop}'s loop with the bookkeeping perftest's
     * run_iter_bw does per request and per completion (per-QP counters in memory, two moderation tests per
     * post, each completion's wr_id read back as its QP's index and credited to it). The C twin of the
     * engine's {@code BandwidthLoop}, which does that bookkeeping too.
     *
     * @return the elapsed nanoseconds measured in C (CLOCK_MONOTONIC)
     * @throws IllegalStateException when the C loop reports an error
     */
    public long cPerftestLoop(long iterations, int postList, int cqMod, int txDepth, int size) {
        return runCLoop(C_PERFTEST_LOOP, "jperf_stub_c_perftest_loop", iterations, postList, cqMod, txDepth, size);
    }

    private long runCLoop(MethodHandle loop, String name, long iterations, int postList, int cqMod, int txDepth,
                          int size) {
        ensureOpen();
        long rc;
        try {
            rc = (long) loop.invokeExact(stub, iterations, postList, cqMod, txDepth, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc < 0) {
            throw new IllegalStateException(name + "(iterations=" + iterations + ", postList=" + postList
                    + ", cqMod=" + cqMod + ", txDepth=" + txDepth + ") failed: " + switch ((int) rc) {
                        case -1 -> "bad arguments (iterations must be a multiple of the post list and the moderation,"
                                + " txDepth >= postList)";
                        case -2 -> "post_send failed (CQ ring full? cqDepth=" + cqDepth + ")";
                        case -3 -> "poll_cq failed";
                        case -4 -> "a completion had an error status";
                        case -5 -> "out of memory";
                        default -> "error " + rc;
                    });
        }
        return rc;
    }

    /**
     * When on, {@code post_send} also performs each RDMA WRITE: copies the SGEs to the WR's
     * remote address, which must then be live memory of this process (a QP writing to itself).
     * Off by default.
     */
    public void executeWrites(boolean on) {
        ensureOpen();
        try {
            SET_EXECUTE_WRITES.invokeExact(stub, on ? 1 : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * When on, {@code post_send} also performs each atomic on the 64-bit word at its remote address (live
     * memory of this process): fetch-and-add adds compare_add, compare-and-swap writes swap when the word
     * equals compare_add; the original value lands in the 8-byte SGE. A misaligned address or another SGE
     * length completes with {@code IBV_WC_REM_INV_REQ_ERR} instead. Off by default.
     */
    public void executeAtomics(boolean on) {
        ensureOpen();
        try {
            SET_EXECUTE_ATOMICS.invokeExact(stub, on ? 1 : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Connects the QP to itself for SEND/RECV: receives are queued, each SEND lands in the oldest one
     * (payload copied, an {@code IBV_WC_RECV} completion with the receive's wr_id queued), and a SEND with
     * no receive queued is refused with EAGAIN. Off by default.
     */
    public void deliverSends(boolean on) {
        ensureOpen();
        try {
            SET_DELIVER_SENDS.invokeExact(stub, on ? 1 : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Receives queued and not consumed by a delivered SEND yet. */
    public int recvPending() {
        ensureOpen();
        try {
            return (int) RECV_PENDING.invokeExact(stub);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Runs the C baseline of the write-latency step ({@code jperf_stub_c_lat_loop}): perftest's
     * run_iter_lat_write as the server, its writes looping back into its own receive buffer.
     * Turns {@link #executeWrites} on.
     *
     * @return the elapsed nanoseconds of {@code iterations} rounds, measured in C
     * @throws IllegalStateException when the C loop reports an error
     */
    public long cLatencyLoop(long iterations, int size) {
        ensureOpen();
        long rc;
        try {
            rc = (long) C_LAT_LOOP.invokeExact(stub, iterations, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc < 0) {
            throw new IllegalStateException("jperf_stub_c_lat_loop(iterations=" + iterations + ", size=" + size
                    + ") failed with " + rc + " (see stub_provider.h)");
        }
        return rc;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            DESTROY.invokeExact(stub);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the stub provider is closed");
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError(t);
    }

    private static MethodHandle handle(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(symbol(name), descriptor, options);
    }

    private static Path locate() {
        List<String> tried = new ArrayList<>();
        String property = System.getProperty(LIBRARY_PROPERTY);
        if (property != null && !property.isBlank()) {
            Path path = Path.of(property).toAbsolutePath();
            if (Files.isRegularFile(path)) {
                return path;
            }
            throw new IllegalStateException("-D" + LIBRARY_PROPERTY + "=" + property + ": no such file (" + path + ")");
        }
        try {
            URL location = StubProvider.class.getProtectionDomain().getCodeSource().getLocation();
            // bench/target/classes or bench/target/benchmarks.jar -> bench/target/native/libjperfstub.so
            Path beside = Path.of(location.toURI()).toAbsolutePath().getParent().resolve(RESOURCE);
            tried.add(beside.toString());
            if (Files.isRegularFile(beside)) {
                return beside;
            }
        } catch (URISyntaxException | RuntimeException e) {
            tried.add("(code source: " + e + ")");
        }
        Path fromRoot = Path.of("bench", "target", RESOURCE).toAbsolutePath();
        tried.add(fromRoot.toString());
        if (Files.isRegularFile(fromRoot)) {
            return fromRoot;
        }
        try (InputStream in = StubProvider.class.getResourceAsStream(RESOURCE)) {
            tried.add("classpath io/jperf/bench/" + RESOURCE);
            if (in != null) {
                Path extracted = Files.createTempFile("jperfstub-", ".so");
                extracted.toFile().deleteOnExit();
                Files.copy(in, extracted, StandardCopyOption.REPLACE_EXISTING);
                return extracted;
            }
        } catch (IOException e) {
            tried.add("(extraction failed: " + e + ")");
        }
        throw new IllegalStateException("cannot find the C stub provider " + LIBRARY_NAME + "; tried " + tried
                + ". Build it with `mvn -pl bench -am package -DskipTests` (needs gcc and libibverbs-dev)"
                + " or pass -D" + LIBRARY_PROPERTY + "=<path>.");
    }
}
