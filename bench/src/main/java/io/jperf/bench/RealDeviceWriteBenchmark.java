package io.jperf.bench;

import io.jperf.verbs.Access;
import io.jperf.verbs.AddressVector;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.MemoryRegion;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import io.jperf.verbs.QpType;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RtrAttributes;
import io.jperf.verbs.RtsAttributes;

import java.lang.foreign.Arena;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Example: a JMH benchmark on a real RDMA device. It opens the device with jperf's verbs
 * resource model ({@link Rdma}), connects one RC queue pair to itself (loopback on the same
 * port) and runs {@link PostPollLoop}, perftest's write_bw loop, moving real RDMA WRITEs
 * between two halves of a registered buffer: ns per WR at each message size.
 *
 * <p>When this machine has no RDMA device (or no rdma-core, or no kernel support) the
 * benchmark does not run: {@link #main} prints why and exits with status {@value #EXIT_SKIPPED};
 * through the JMH launcher ({@code java -jar benchmarks.jar RealDeviceWriteBenchmark}) the
 * trial setup fails with the same message, so no number is ever produced without a device.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar \
 *     io.jperf.bench.RealDeviceWriteBenchmark [device]
 * java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar RealDeviceWriteBenchmark \
 *     -p device=rxe0 -p size=64,65536
 * </pre>
 *
 * A benchmark of a whole jperf test through the embeddable API ({@code io.jperf.engine.PerfTest})
 * has the same shape: device check, trial setup, one benchmark method running the test.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class RealDeviceWriteBenchmark {
    /** Exit status of {@link #main} when there is no device: nothing was measured. */
    public static final int EXIT_SKIPPED = 3;
    static final int WRS_PER_INVOCATION = 1024;
    static final int TX_DEPTH = 128;
    static final int PORT = 1;

    /** The verbs device; empty means the first one, as perftest does. */
    @Param({""})
    public String device;

    @Param({"64", "65536"})
    public int size;

    private Arena arena;
    private Context context;
    private QueuePair qp;
    private PostPollLoop loop;

    /**
     * Why no benchmark can run here, or empty when an RDMA device exists.
     * Never throws: a missing library or kernel support is a reason, not an error.
     */
    public static Optional<String> whyNoDevice() {
        try {
            List<String> names = Rdma.deviceNames();
            return names.isEmpty()
                    ? Optional.of("no RDMA device on this machine (ibv_get_device_list returned none)")
                    : Optional.empty();
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("RDMA is unavailable here: " + e.getMessage());
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        Optional<String> why = whyNoDevice();
        if (why.isPresent()) {
            throw new IllegalStateException("RealDeviceWriteBenchmark skipped, nothing measured: " + why.get());
        }
        arena = Arena.ofConfined();
        context = Rdma.open(device.isEmpty() ? null : device);
        PortInfo port = context.queryPort(PORT);
        ProtectionDomain pd = context.allocateProtectionDomain();
        // Source in the first half, destination in the second: the QP writes to itself.
        MemoryRegion mr = pd.allocateAndRegister(2L * size, 4096,
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        CompletionQueue cq = context.createCompletionQueue(TX_DEPTH, null);
        qp = pd.createQueuePair(QpType.RC, cq, cq, new QpCapabilities(TX_DEPTH, 1, 1, 1, 0));
        qp.modifyToInit(PORT, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        Optional<GidEntry> gid = GidSelection.perftestDefault(port);
        AddressVector self = new AddressVector(port.lid(), 0, PORT, gid.map(GidEntry::gid),
                gid.map(GidEntry::index).orElse(0), 0xFF, 0, 0);
        qp.modifyToRtr(new RtrAttributes(port.activeMtu(), qp.qpn(), 0, 1, 12, self));
        qp.modifyToRts(new RtsAttributes(0, 14, 7, 7, 1));
        loop = new PostPollLoop(arena, qp.handle(), cq.handle(), mr.address(), mr.lkey(), mr.address() + size,
                mr.rkey(), size, 1, 1, TX_DEPTH);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (context != null) {
            context.close(); // closes the QP, CQ, MR and PD first
        }
        if (arena != null) {
            arena.close();
        }
    }

    /** RDMA WRITEs to itself, every WR signaled: ns per completed WR. */
    @Benchmark
    @OperationsPerInvocation(WRS_PER_INVOCATION)
    public long writeLoopback() {
        return loop.run(WRS_PER_INVOCATION);
    }

    /**
     * Runs this benchmark when there is a device; otherwise prints why and exits with
     * {@value #EXIT_SKIPPED}.
     *
     * @param args optional device name
     */
    public static void main(String[] args) throws RunnerException {
        Optional<String> why = whyNoDevice();
        if (why.isPresent()) {
            System.err.println("RealDeviceWriteBenchmark skipped, nothing measured: " + why.get());
            System.exit(EXIT_SKIPPED);
        }
        OptionsBuilder options = new OptionsBuilder();
        options.include(RealDeviceWriteBenchmark.class.getName() + "\\.");
        if (args.length > 0) {
            options.param("device", args[0]);
        }
        Options built = options.build();
        new Runner(built).run();
    }
}
