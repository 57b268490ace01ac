package io.jperf.lab;

import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Rdma;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * The one-guest lab's two ends as the lab tests use them: rxe0 serves, rxe1 is the client; each with
 * the GID perftest would pick by default and that GID's IPv4 address.
 *
 * @param serverDevice  the server's device (rxe0)
 * @param clientDevice  the client's device (rxe1)
 * @param serverIp      the server GID's address (10.20.0.1 in the lab)
 * @param clientIp      the client GID's address
 * @param serverGid     the server's GID index
 * @param clientGid     the client's GID index
 */
record LabEnds(String serverDevice, String clientDevice, String serverIp, String clientIp, int serverGid,
               int clientGid) {

    /** Reads both ends' default GIDs from the devices. */
    static LabEnds find() {
        GidEntry s;
        GidEntry c;
        try (Context server = Rdma.open("rxe0"); Context client = Rdma.open("rxe1")) {
            s = GidSelection.perftestDefault(server.queryPort(1)).orElseThrow();
            c = GidSelection.perftestDefault(client.queryPort(1)).orElseThrow();
        }
        return new LabEnds("rxe0", "rxe1", s.ipAddress().orElseThrow().getHostAddress(),
                c.ipAddress().orElseThrow().getHostAddress(), s.index(), c.index());
    }

    /** A TCP port nobody listens on right now (perftest and jperf use the same number for RDMA CM). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Waits until something listens on TCP {@code port} of this host, read from {@code /proc/net/tcp} and
     * {@code tcp6} (a probing connection would be taken by a jperf server as its client).
     *
     * @throws IllegalStateException when nothing listens within {@code timeout}
     */
    static void awaitListening(int port, java.time.Duration timeout) throws IOException, InterruptedException {
        String hexPort = String.format(java.util.Locale.ROOT, ":%04X", port);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals("0A")) {
                        return;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("nothing listens on TCP port " + port + " after " + timeout.toSeconds() + " s");
    }
}
