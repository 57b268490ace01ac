package io.jperf.engine;

import io.jperf.options.Connection;
import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;

import io.jperf.wire.PeerText;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a jperf client tells a {@link JperfServer} in the extension exchange so that the server can
 * run the same test: the kind, the parameters that shape both ends, and which of the server's
 * addresses (and so which device and GID) the test should use. Encoded as {@code serve.*} fields;
 * a plain jperf server ignores them. The server answers with {@link #SERVED} and, when it cannot
 * run the test, {@link #ERROR}.
 */
final class ServeRequest {
    static final String PREFIX = "serve.";
    /** In the server's answer: this peer is {@code jperf serve} and adopted the request. */
    static final String SERVED = "serve.served";
    /** In the server's answer: why it cannot run the requested test. */
    static final String ERROR = "serve.error";
    /** In the server's answer: it refused because another client's test is running; try again later. */
    static final String BUSY = "serve.busy";
    /** In the server's answer: the server's path record (JSON) when it refused, for the client's verdicts. */
    static final String PATH = "serve.path";
    private static final String ADDRESS = "serve.address";
    /** The client's GID (hex), so the server can check it is the client's own before it allocates anything. */
    static final String CLIENT_GID = "serve.client_gid";

    private ServeRequest() {
    }

    /** The client's request fields for {@code options}, asking the server to use {@code peerAddress} (nullable). */
    static Map<String, String> fields(TestOptions o, String peerAddress) {
        return fields(o, peerAddress, null);
    }

    /** As {@link #fields(TestOptions, String)}, naming the client's GID ({@code gid} null: not known yet, -R). */
    static Map<String, String> fields(TestOptions o, String peerAddress, byte[] gid) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("serve.kind", o.params().kind().name());
        f.put("serve.connection", o.params().connection().name());
        f.put("serve.size", Long.toString(o.params().size()));
        f.put("serve.all_sizes", Boolean.toString(o.params().allSizes()));
        f.put("serve.iterations", Integer.toString(o.params().iterations()));
        f.put("serve.duration", Integer.toString(o.params().durationSeconds()));
        f.put("serve.qps", Integer.toString(o.params().numQps()));
        f.put("serve.bidirectional", Boolean.toString(o.params().bidirectional()));
        f.put("serve.tx_depth", Integer.toString(o.params().txDepth()));
        f.put("serve.post_list", Integer.toString(o.params().postList()));
        if (o.params().cqModerationExplicit()) {
            f.put("serve.cq_moderation", Integer.toString(o.params().cqModeration()));
        }
        if (o.params().inlineSizeExplicit()) {
            f.put("serve.inline", Integer.toString(o.params().inlineSize()));
        }
        if (o.params().rxDepth() > 0) {
            f.put("serve.rx_depth", Integer.toString(o.params().rxDepth()));
        }
        if (o.params().atomicType() != null) {
            f.put("serve.atomic_type", o.params().atomicType().name());
        }
        if (o.params().mtu() != null) {
            f.put("serve.mtu", o.params().mtu().toString());
        }
        f.put("serve.sl", Integer.toString(o.params().serviceLevel()));
        f.put("serve.tclass", Integer.toString(o.params().trafficClass()));
        f.put("serve.qp_timeout", Integer.toString(o.params().qpTimeout()));
        f.put("serve.rdma_cm", Boolean.toString(o.params().rdmaCm()));
        if (o.params().tos() != null) {
            f.put("serve.tos", o.params().tos().toString());
        }
        f.put("serve.report_gbits", Boolean.toString(o.params().reportGbits()));
        if (peerAddress != null) {
            f.put(ADDRESS, peerAddress);
        }
        if (gid != null) {
            f.put(CLIENT_GID, HexFormat.of().formatHex(gid));
        }
        return f;
    }

    /** The GID the client says it will use, if it said one; a malformed one is refused. */
    static Optional<byte[]> clientGid(Map<String, String> fields) {
        String v = fields.get(CLIENT_GID);
        if (v == null) {
            return Optional.empty();
        }
        try {
            byte[] gid = v.length() == 32 ? HexFormat.of().parseHex(v) : null;
            if (gid != null) {
                return Optional.of(gid);
            }
        } catch (IllegalArgumentException e) {
            // refused below
        }
        throw new OptionsException("the client's " + CLIENT_GID + " is not 16 bytes in hex: '" + PeerText.line(v) + "'");
    }

    /**
     * The address the client asked the server to use, as an IP address: a name is refused, never
     * resolved (a client must not make the server send DNS queries of its choosing).
     */
    static Optional<InetAddress> literalAddress(Map<String, String> fields) {
        String v = fields.get(ADDRESS);
        if (v == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.ofLiteral(v));
        } catch (IllegalArgumentException e) {
            throw new OptionsException("the client asked for address '" + PeerText.line(v) + "', which is not an IP"
                    + " address (jperf serve does not resolve names a client sends)");
        }
    }

    /** The address the client asked the server to use, if any. */
    static Optional<String> address(Map<String, String> fields) {
        return Optional.ofNullable(fields.get(ADDRESS));
    }

    /**
     * The server's options: the client's test on top of the server's own (port, ib port, timeout
     * and output stay the server's; device and GID are chosen by the caller).
     *
     * @throws OptionsException when a field is missing or out of range (a broken or hostile peer)
     */
    static TestOptions.Builder apply(Map<String, String> f, TestOptions server) {
        TestKind kind = enumField(f, "serve.kind", TestKind.class);
        TestOptions.Builder b = TestOptions.builder(kind)
                .port(server.target().port()).ibPort(server.target().ibPort()).outputMode(server.output().outputMode())
                .connection(enumField(f, "serve.connection", Connection.class))
                .size(longField(f, "serve.size")).allSizes(boolField(f, "serve.all_sizes"))
                .iterations(intField(f, "serve.iterations")).durationSeconds(intField(f, "serve.duration"))
                .numQps(intField(f, "serve.qps")).bidirectional(boolField(f, "serve.bidirectional"))
                .txDepth(intField(f, "serve.tx_depth")).postList(intField(f, "serve.post_list"))
                .serviceLevel(intField(f, "serve.sl")).trafficClass(intField(f, "serve.tclass"))
                .qpTimeout(intField(f, "serve.qp_timeout")).rdmaCm(boolField(f, "serve.rdma_cm"))
                .reportGbits(boolField(f, "serve.report_gbits"));
        if (f.containsKey("serve.cq_moderation")) {
            b.cqModeration(intField(f, "serve.cq_moderation"));
        }
        if (f.containsKey("serve.inline")) {
            b.inlineSize(intField(f, "serve.inline"));
        }
        if (f.containsKey("serve.mtu")) {
            b.mtu(intField(f, "serve.mtu"));
        }
        if (f.containsKey("serve.rx_depth") && kind.verb().usesReceives()) {
            b.rxDepth(intField(f, "serve.rx_depth"));
        }
        if (f.containsKey("serve.tos")) {
            b.tos(intField(f, "serve.tos"));
        }
        if (f.containsKey("serve.atomic_type") && kind.verb().isAtomic()) {
            b.atomicType(enumField(f, "serve.atomic_type", io.jperf.options.AtomicType.class));
        }
        return b;
    }

    /** Makes a multi-line message one field value (the extension's values are single lines). */
    static String escape(String text) {
        return String.valueOf(text).replace("\\", "\\\\").replace("\n", "\\n");
    }

    /** The peer's message as it meant it (line breaks restored), made safe to show ({@link PeerText#multiline}). */
    static String unescape(String value) {
        if (value == null) {
            return "(no reason given)";
        }
        return PeerText.multiline(unescaped(value));
    }

    private static String unescaped(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length()) {
                char n = value.charAt(++i);
                sb.append(n == 'n' ? '\n' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** True when the fields carry a request (the client is a jperf that knows {@code jperf serve}). */
    static boolean present(Map<String, String> fields) {
        return fields.containsKey("serve.kind");
    }

    private static String field(Map<String, String> f, String key) {
        String v = f.get(key);
        if (v == null) {
            throw new OptionsException("the client's request lacks " + key);
        }
        return v;
    }

    private static long longField(Map<String, String> f, String key) {
        try {
            return Long.parseLong(field(f, key));
        } catch (NumberFormatException e) {
            throw new OptionsException("the client's " + key + " is not a number: '" + PeerText.line(f.get(key)) + "'");
        }
    }

    private static int intField(Map<String, String> f, String key) {
        long v = longField(f, key);
        if (v != (int) v) {
            throw new OptionsException("the client's " + key + " is out of range: " + v);
        }
        return (int) v;
    }

    private static boolean boolField(Map<String, String> f, String key) {
        String v = field(f, key);
        if (!v.equals("true") && !v.equals("false")) {
            throw new OptionsException("the client's " + key + " is not true/false: '" + PeerText.line(v) + "'");
        }
        return Boolean.parseBoolean(v);
    }

    private static <E extends Enum<E>> E enumField(Map<String, String> f, String key, Class<E> type) {
        String v = field(f, key);
        try {
            return Enum.valueOf(type, v);
        } catch (IllegalArgumentException e) {
            throw new OptionsException("the client's " + key + " is unknown: '" + PeerText.line(v) + "'");
        }
    }
}
