package io.jperf.cli;

import io.jperf.options.Connection;
import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * The perftest flags write-bw and write-lat share. Unset options stay null so that
 * {@link TestOptions.Builder} applies perftest's per-test defaults.
 */
final class TestOptionsMixin {
    @Parameters(index = "0", arity = "0..1", paramLabel = "HOST",
            description = "The server to connect to. Without it, this side is the server and waits for one client.")
    String host;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "TCP control port (default 18515).")
    Integer port;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "RDMA device (default: the first one).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "N", description = "Port of the device (default 1).")
    Integer ibPort;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES",
            description = "Message size, K/M/G suffixes allowed (default: write-bw 65536, write-lat 2).")
    String size;

    @Option(names = {"-a", "--all"}, description = "Run all sizes from 2 B to 8 MiB.")
    boolean allSizes;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "Iterations per size (default: write-bw 5000, write-lat 1000; at least 5).")
    Integer iterations;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS",
            description = "Run for this long instead of -n; a quarter at each end is warm-up/cool-down.")
    Integer duration;

    @Option(names = {"-c", "--connection"}, paramLabel = "RC|UC", description = "Transport (default RC).")
    Connection connection;

    @Option(names = {"-I", "--inline_size"}, paramLabel = "BYTES",
            description = "Largest message sent inline (default: write-bw 0; write-lat 220 on Mellanox NICs, else 0).")
    Integer inlineSize;

    @Option(names = {"-m", "--mtu"}, paramLabel = "BYTES",
            description = "Path MTU 256..4096 (default: the port's active MTU; the smaller of both ends is used).")
    Integer mtu;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX",
            description = "GID index (default: like perftest, the IPv4-mapped RoCE v2 GID; see `jperf devices`).")
    Integer gidIndex;

    @Option(names = {"-S", "--sl"}, paramLabel = "SL", description = "Service level 0..15 (default 0).")
    Integer serviceLevel;

    @Option(names = "--tclass", paramLabel = "TC",
            description = "GRH traffic class 0..255: DSCP << 2 | ECN (default 0).")
    Integer trafficClass;

    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "N",
            description = "QP ACK timeout exponent 0..31: 4.096 us x 2^N (default 14).")
    Integer qpTimeout;

    @Option(names = {"-R", "--rdma_cm"}, description = "Connect the test QPs with RDMA CM.")
    boolean rdmaCm;

    @Option(names = {"-T", "--tos"}, paramLabel = "TOS", description = "RDMA CM type of service 0..255 (with -R).")
    Integer tos;

    @Option(names = {"-F", "--CPU-freq"}, description = "Accepted for perftest compatibility; jperf times with the"
            + " monotonic clock and needs no CPU frequency.")
    boolean cpuFreq;

    @Option(names = "--output", paramLabel = "WHAT",
            description = "Print only one number: bandwidth or message_rate (write-bw), latency (write-lat).")
    String output;

    @Option(names = "--out_json", description = "Also write the JSON report to --out_json_file.")
    boolean outJson;

    @Option(names = "--out_json_file", paramLabel = "FILE", description = "JSON report file (default perftest_out.json).")
    Path outJsonFile;

    @Option(names = "--json", description = "Print the JSON report on stdout instead of perftest's text.")
    boolean json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the results as CSV.")
    Path csv;

    @Option(names = "--bind_source_ip", paramLabel = "ADDR", description = "Local address of the control socket.")
    String bindSourceIp;

    @Option(names = "--loopback",
            description = "Run server and client in this process (the server on --peer-dev, default the same device).")
    boolean loopback;

    @Option(names = "--peer-dev", paramLabel = "DEV", description = "With --loopback: the server's device.")
    String peerDevice;

    @Option(names = "--qos", description = "The fabric has a lossless/ECN class for RDMA: report traffic class 0 or"
            + " non-ECN-capable marking as a path problem (F5).")
    boolean qosExpected;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Warm the data path up before measuring so the"
            + " JIT has compiled it: write-bw writes this long before the first size; write-lat runs 40960 unmeasured"
            + " rounds when the peer is jperf. 0 turns it off (default 1).")
    Double warmupSeconds;

    @Option(names = "--cpu", paramLabel = "N", description = "Pin the test thread (not the whole JVM) to CPU N;"
            + " the JIT and GC threads keep the other CPUs. The path record shows where the thread ran.")
    Integer cpu;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "Bound on connecting, every control exchange, and a stalled data path (default 60).")
    Integer timeoutSeconds;

    /** Set by write-lat's --hlog. */
    Path hlogFile;

    /** The validated options, or an {@code OptionsException} naming the bad flag. */
    TestOptions toOptions(TestKind kind, BwFlags bw) {
        TestOptions.Builder b = TestOptions.builder(kind);
        if (host != null) {
            b.serverHost(host);
        }
        setIf(port, b::port);
        if (device != null) {
            b.device(device);
        }
        setIf(ibPort, b::ibPort);
        if (size != null) {
            b.size(size);
        }
        b.allSizes(allSizes);
        setIf(iterations, b::iterations);
        setIf(duration, b::durationSeconds);
        if (connection != null) {
            b.connection(connection);
        }
        setIf(inlineSize, b::inlineSize);
        if (mtu != null) {
            b.mtu(mtu);
        }
        setIf(gidIndex, b::gidIndex);
        setIf(serviceLevel, b::serviceLevel);
        setIf(trafficClass, b::trafficClass);
        setIf(qpTimeout, b::qpTimeout);
        b.rdmaCm(rdmaCm);
        if (tos != null) {
            b.tos(tos);
        }
        if (output != null) {
            b.outputMode(OutputMode.parse(output));
        }
        b.json(outJson);
        if (outJsonFile != null) {
            b.jsonFile(outJsonFile);
        }
        if (csv != null) {
            b.csvFile(csv);
        }
        if (bindSourceIp != null) {
            b.bindSourceIp(bindSourceIp);
        }
        b.loopback(loopback);
        if (hlogFile != null) {
            b.hlogFile(hlogFile);
        }
        if (bw != null) {
            bw.applyTo(b);
        }
        return b.build();
    }

    private static void setIf(Integer value, java.util.function.IntConsumer setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
