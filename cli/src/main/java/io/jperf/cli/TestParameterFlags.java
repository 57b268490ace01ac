package io.jperf.cli;

import io.jperf.options.Connection;
import io.jperf.options.TestOptions;
import picocli.CommandLine.Option;

/**
 * perftest's test parameters, shared by write-bw, write-lat and sweep: the device and port, the
 * message size and count, the transport and QP attributes. Unset options stay null so that
 * {@link TestOptions.Builder} applies perftest's per-test defaults.
 */
final class TestParameterFlags {
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
            description = "Iterations per size (default: 5000 for write-bw, 1000 for every other test, as perftest; at least 5).")
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

    @Option(names = "--bind_source_ip", paramLabel = "ADDR",
            description = "Local address of the control socket (and of the RDMA CM id with -R).")
    String bindSourceIp;

    /** Sets every given parameter on {@code b}; {@code -R} only when given (a sweep may set it per choice). */
    TestOptions.Builder applyTo(TestOptions.Builder b) {
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
        if (rdmaCm) {
            b.rdmaCm(true);
        }
        if (tos != null) {
            b.tos(tos);
        }
        if (bindSourceIp != null) {
            b.bindSourceIp(bindSourceIp);
        }
        return b;
    }

    private static void setIf(Integer value, java.util.function.IntConsumer setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
