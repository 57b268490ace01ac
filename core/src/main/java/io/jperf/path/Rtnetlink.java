package io.jperf.path;

import io.jperf.ffi.Errno;
import io.jperf.ffi.NetlinkSocket;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small rtnetlink client: route lookups ({@code RTM_GETROUTE}), rule dumps
 * ({@code RTM_GETRULE}), link and address queries, answered by the kernel over a
 * {@code NETLINK_ROUTE} socket. No {@code ip} process is run and no text is scraped.
 *
 * <p>Each request carries a fresh sequence number; replies with other numbers (late answers to
 * a request that timed out) are skipped. A dump the kernel marks as interrupted
 * ({@code NLM_F_DUMP_INTR}, the tables changed meanwhile) is repeated up to three times.
 *
 * <p>Lifecycle: {@link #open()} (or {@link #openInNamespace}), queries, {@link #close()}.
 * Threading: methods are {@code synchronized}, so one instance may be shared, but requests are
 * serialised; every call waits at most the receive timeout per datagram.
 */
public final class Rtnetlink implements NetworkView, AutoCloseable {

    /** The default per-datagram receive timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    /** Moves datagrams; {@link NetlinkSocket} in production, canned bytes in tests. */
    interface Transport extends AutoCloseable {
        void send(byte[] datagram) throws IOException;

        byte[] receive() throws IOException;

        @Override
        void close();
    }

    private final Transport transport;
    private final AtomicInteger seq;

    Rtnetlink(Transport transport, int firstSeq) {
        this.transport = transport;
        this.seq = new AtomicInteger(firstSeq);
    }

    /** Opens a client in this JVM's network namespace with {@link #DEFAULT_TIMEOUT}. */
    public static Rtnetlink open() throws IOException {
        return over(NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, DEFAULT_TIMEOUT));
    }

    /** Opens a client for the network namespace {@code namespaceFile} (e.g. {@code /run/netns/NAME}). */
    public static Rtnetlink openInNamespace(Path namespaceFile) throws IOException {
        return over(NetlinkSocket.openInNamespace(namespaceFile, NetlinkSocket.NETLINK_ROUTE, DEFAULT_TIMEOUT));
    }

    private static Rtnetlink over(NetlinkSocket socket) {
        return new Rtnetlink(new Transport() {
            @Override
            public void send(byte[] datagram) throws IOException {
                socket.send(datagram);
            }

            @Override
            public byte[] receive() throws IOException {
                return socket.receive();
            }

            @Override
            public void close() {
                socket.close();
            }
        }, (int) (System.nanoTime() & 0x3fffffff) + 1);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Two questions are asked: the route itself (egress, gateway, preferred source, table via
     * {@code RTM_F_LOOKUP_TABLE}) and, best effort, the matching FIB entry
     * ({@code RTM_F_FIB_MATCH}, kernel 4.13+) for its prefix and protocol. The egress index is
     * resolved to a name with {@code RTM_GETLINK}.
     */
    @Override
    public synchronized Route route(InetAddress destination, InetAddress sourceOrNull) throws IOException {
        String what = "RTM_GETROUTE to " + Addr.text(destination)
                + (sourceOrNull == null ? "" : " from " + Addr.text(sourceOrNull));
        int s = seq.incrementAndGet();
        NlMessage answer = single(NlCodec.routeGetRequest(s, destination, sourceOrNull, 0, false), s, what,
                Nl.RTM_NEWROUTE);
        Route route = parse(what, () -> NlCodec.parseRoute(answer, destination, sourceOrNull, false));
        try {
            int f = seq.incrementAndGet();
            NlMessage fib = single(NlCodec.routeGetRequest(f, destination, sourceOrNull, 0, true), f,
                    what + " fibmatch", Nl.RTM_NEWROUTE);
            Route entry = parse(what, () -> NlCodec.parseRoute(fib, destination, sourceOrNull, true));
            route = route.withMatch(entry.matchedPrefix(), entry.protocol());
        } catch (RtnetlinkException e) {
            // Older kernels reject RTM_F_FIB_MATCH; the route stands without its prefix.
        }
        if (route.egressIfindex() > 0) {
            route = route.withEgressNetdev(link(route.egressIfindex()).map(LinkInfo::name));
        }
        return route;
    }

    @Override
    public synchronized List<PolicyRule> rules(int family) throws IOException {
        String what = "RTM_GETRULE dump (" + (family == Nl.AF_INET ? "IPv4" : family == Nl.AF_INET6 ? "IPv6"
                : "family " + family) + ")";
        List<PolicyRule> rules = new ArrayList<>();
        for (NlMessage m : dump(s -> NlCodec.ruleDumpRequest(s, family), what, Nl.RTM_NEWRULE)) {
            rules.add(parse(what, () -> NlCodec.parseRule(m)));
        }
        return List.copyOf(rules);
    }

    @Override
    public synchronized Optional<LinkInfo> link(int ifindex) throws IOException {
        String what = "RTM_GETLINK ifindex " + ifindex;
        int s = seq.incrementAndGet();
        try {
            NlMessage m = single(NlCodec.linkGetRequest(s, ifindex), s, what, Nl.RTM_NEWLINK);
            return Optional.of(parse(what, () -> NlCodec.parseLink(m)));
        } catch (RtnetlinkException e) {
            if (e.errno() == Errno.ENODEV) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public synchronized List<InetAddress> addresses(int ifindex) throws IOException {
        return prefixes(ifindex).stream().map(Prefix::address).toList();
    }

    @Override
    public synchronized List<Prefix> prefixes(int ifindex) throws IOException {
        List<Prefix> out = new ArrayList<>();
        for (int family : new int[] {Nl.AF_INET, Nl.AF_INET6}) {
            String what = "RTM_GETADDR dump (" + (family == Nl.AF_INET ? "IPv4" : "IPv6") + ")";
            for (NlMessage m : dump(s -> NlCodec.addressDumpRequest(s, family), what, Nl.RTM_NEWADDR)) {
                parse(what, () -> NlCodec.parseAddress(m)).filter(a -> a.ifindex() == ifindex)
                        .ifPresent(a -> out.add(new Prefix(a.address(), a.prefixLength())));
            }
        }
        return List.copyOf(out);
    }

    /** Closes the socket; later calls fail with {@link IllegalStateException}. */
    @Override
    public synchronized void close() {
        transport.close();
    }

    // ---------------------------------------------------------------- exchange

    private interface Request {
        byte[] build(int seq);
    }

    private interface Parse<T> {
        T get();
    }

    private static <T> T parse(String what, Parse<T> parse) throws RtnetlinkException {
        try {
            return parse.get();
        } catch (NlCodec.MalformedNetlinkException | IllegalArgumentException e) {
            throw new RtnetlinkException(what, "malformed reply: " + e.getMessage(), e);
        }
    }

    /** Sends a non-dump request and returns its one answer of {@code type}. */
    private NlMessage single(byte[] request, int s, String what, int type) throws IOException {
        transport.send(request);
        while (true) {
            byte[] datagram = transport.receive();
            for (NlMessage m : parse(what, () -> NlCodec.parseDatagram(datagram))) {
                if (m.seq() != s) {
                    continue;
                }
                if (m.type() == Nl.NLMSG_ERROR) {
                    throwIfError(what, m);
                    throw new RtnetlinkException(what, "acknowledged without an answer", null);
                }
                if (m.type() == type) {
                    return m;
                }
                throw new RtnetlinkException(what, "unexpected " + m, null);
            }
        }
    }

    /** Sends a dump request and collects its {@code type} messages until NLMSG_DONE. */
    private List<NlMessage> dump(Request request, String what, int type) throws IOException {
        for (int attempt = 1; ; attempt++) {
            int s = seq.incrementAndGet();
            transport.send(request.build(s));
            List<NlMessage> out = new ArrayList<>();
            boolean interrupted = false;
            boolean done = false;
            while (!done) {
                byte[] datagram = transport.receive();
                for (NlMessage m : parse(what, () -> NlCodec.parseDatagram(datagram))) {
                    if (m.seq() != s) {
                        continue;
                    }
                    interrupted |= (m.flags() & Nl.NLM_F_DUMP_INTR) != 0;
                    switch (m.type()) {
                        case Nl.NLMSG_ERROR -> {
                            throwIfError(what, m);
                            done = true;
                        }
                        case Nl.NLMSG_DONE -> {
                            byte[] p = m.payload();
                            int status = p.length >= 4 ? ByteBuffer.wrap(p).order(ByteOrder.nativeOrder()).getInt(0) : 0;
                            if (status < 0) {
                                throw new RtnetlinkException(what, -status, Optional.empty());
                            }
                            done = true;
                        }
                        case Nl.NLMSG_OVERRUN -> throw new RtnetlinkException(what, "NLMSG_OVERRUN (data lost)", null);
                        case Nl.NLMSG_NOOP -> { }
                        default -> {
                            if (m.type() == type) {
                                out.add(m);
                            }
                        }
                    }
                    if (done) {
                        break;
                    }
                }
            }
            if (!interrupted) {
                return out;
            }
            if (attempt == 3) {
                throw new RtnetlinkException(what, "dump interrupted 3 times (NLM_F_DUMP_INTR): "
                        + "the kernel tables kept changing", null);
            }
        }
    }

    private static void throwIfError(String what, NlMessage m) throws RtnetlinkException {
        NlCodec.NlError error = parse(what, () -> NlCodec.parseError(m));
        if (error.errno() != 0) {
            throw new RtnetlinkException(what, error.errno(), error.kernelMessage());
        }
    }
}
