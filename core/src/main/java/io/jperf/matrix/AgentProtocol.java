package io.jperf.matrix;

import io.jperf.options.OptionsException;
import io.jperf.wire.PeerText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The fields of the coordinator's requests to an agent and of the agent's answers, carried in the
 * jperf extension exchange (after the version exchange, authenticated by {@code ServeAuth}). Three
 * operations ({@value #OP}): {@code describe} (the agent's rank, member count and rails),
 * {@code run} (a {@link PairRequest}; the answer is a {@link PairOutcome}) and {@code stop}. A
 * refusal is {@code serve.error}, as {@code jperf serve} refuses. Stateless.
 */
final class AgentProtocol {
    static final String OP = "matrix.op";
    static final String DESCRIBE = "describe";
    static final String RUN = "run";
    static final String STOP = "stop";
    static final String RANK = "matrix.rank";
    static final String HOSTS = "matrix.hosts";
    static final String RAILS = "matrix.rails";
    static final String RAIL = "matrix.rail.";
    static final String OK = "matrix.ok";
    static final String VALUE = "matrix.value";
    static final String ERROR = "matrix.error";
    static final String PATH = "matrix.path";
    static final String VERDICTS = "matrix.verdicts";
    static final String STOPPED = "matrix.stopped";

    private AgentProtocol() {
    }

    static Map<String, String> describe() {
        return Map.of(OP, DESCRIBE);
    }

    static Map<String, String> stop() {
        return Map.of(OP, STOP);
    }

    static Map<String, String> described(int rank, int hosts, List<Rail> rails) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(RANK, Integer.toString(rank));
        f.put(HOSTS, Integer.toString(hosts));
        f.put(RAILS, Integer.toString(rails.size()));
        for (int i = 0; i < rails.size(); i++) {
            f.put(RAIL + i, rails.get(i).device());
            f.put(RAIL + i + ".address", rails.get(i).address().orElse(""));
        }
        return f;
    }

    /** An agent's description: its rank, its member count, its rails. */
    record Description(int rank, int hosts, List<Rail> rails) {
    }

    static Description description(Map<String, String> f) {
        int rails = intField(f, RAILS, 1, 64);
        List<Rail> list = new ArrayList<>();
        for (int i = 0; i < rails; i++) {
            String device = field(f, RAIL + i);
            String address = field(f, RAIL + i + ".address");
            list.add(new Rail(PeerText.line(device), address.isEmpty() ? Optional.empty() : Optional.of(literal(address))));
        }
        return new Description(intField(f, RANK, 0, Integer.MAX_VALUE), intField(f, HOSTS, 1, Integer.MAX_VALUE),
                List.copyOf(list));
    }

    static Map<String, String> run(PairRequest r) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(OP, RUN);
        f.put("matrix.kind", r.bandwidth() ? "write-bw" : "write-lat");
        f.put("matrix.size", Long.toString(r.size()));
        f.put("matrix.duration", Integer.toString(r.durationSeconds()));
        f.put("matrix.tclass", Integer.toString(r.trafficClass()));
        f.put("matrix.warmup_ms", Long.toString(r.warmup().toMillis()));
        f.put("matrix.timeout_ms", Long.toString(r.timeout().toMillis()));
        f.put("matrix.client_rail", Integer.toString(r.clientRail()));
        f.put("matrix.server_rank", Integer.toString(r.serverRank()));
        f.put("matrix.server_rail", Integer.toString(r.serverRail()));
        f.put("matrix.server_address", r.serverAddress());
        f.put("matrix.server_port", Integer.toString(r.serverPort()));
        return f;
    }

    /**
     * @throws OptionsException naming the field that is missing or out of range
     */
    static PairRequest request(Map<String, String> f) {
        String kind = field(f, "matrix.kind");
        if (!kind.equals("write-bw") && !kind.equals("write-lat")) {
            throw new OptionsException("matrix.kind is write-bw or write-lat (got '" + PeerText.line(kind) + "')");
        }
        return new PairRequest(kind.equals("write-bw"), longField(f, "matrix.size", 1, 1L << 30),
                intField(f, "matrix.duration", 1, 86_400), intField(f, "matrix.tclass", 0, 255),
                Duration.ofMillis(longField(f, "matrix.warmup_ms", 0, 600_000)),
                Duration.ofMillis(longField(f, "matrix.timeout_ms", 1, 3_600_000)),
                intField(f, "matrix.client_rail", 0, 63), intField(f, "matrix.server_rank", 0, Integer.MAX_VALUE),
                intField(f, "matrix.server_rail", 0, 63), field(f, "matrix.server_address"),
                intField(f, "matrix.server_port", 1, 65_535));
    }

    /**
     * The longest path JSON an answer carries: the coordinator reads at most
     * {@link io.jperf.wire.JperfExtension#MAX_BYTES}; a longer one is left out, which the answer says.
     */
    static final int MAX_PATH_CHARS = 48 * 1024;
    /** The longest error text an answer carries. */
    static final int MAX_ERROR_CHARS = 8 * 1024;
    static final String PATH_LEFT_OUT = "matrix.path_left_out";

    static Map<String, String> outcome(PairOutcome o) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(OK, Boolean.toString(o.value().isPresent()));
        o.value().ifPresent(v -> f.put(VALUE, Double.toString(v)));
        o.error().ifPresent(e -> f.put(ERROR, escape(e.length() > MAX_ERROR_CHARS ? e.substring(0, MAX_ERROR_CHARS) : e)));
        o.pathJson().ifPresent(p -> {
            if (p.length() <= MAX_PATH_CHARS) {
                f.put(PATH, p.replace('\n', ' '));
            } else {
                f.put(PATH_LEFT_OUT, p.length() + " characters");
            }
        });
        f.put(VERDICTS, Integer.toString(o.verdicts() & 0xffff));
        return f;
    }

    /** The agent's outcome; a malformed one becomes a failure naming the field. */
    static PairOutcome outcome(Map<String, String> f) {
        String path = f.get(PATH);
        short verdicts;
        try {
            verdicts = (short) intField(f, VERDICTS, 0, 0xffff);
        } catch (OptionsException e) {
            return PairOutcome.failed("the agent's answer is malformed: " + e.getMessage(), null, (short) 0);
        }
        if ("true".equals(f.get(OK))) {
            try {
                double v = Double.parseDouble(field(f, VALUE));
                if (Double.isFinite(v) && v >= 0) {
                    return PairOutcome.ok(v, path, verdicts);
                }
            } catch (NumberFormatException | OptionsException e) {
                // below
            }
            return PairOutcome.failed("the agent's answer has no valid matrix.value", path, verdicts);
        }
        String error = f.get(ERROR);
        return PairOutcome.failed(error == null ? "the agent gave no reason" : unescape(error), path, verdicts);
    }

    /** Makes a multi-line message one field value. */
    static String escape(String text) {
        return String.valueOf(text).replace("\\", "\\\\").replace("\n", "\\n");
    }

    /** The peer's message with line breaks restored, made safe to show. */
    static String unescape(String value) {
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
        return PeerText.multiline(sb.toString());
    }

    /** An IP address as text; a name is refused (an agent's rail is an address). */
    private static String literal(String v) {
        try {
            return java.net.InetAddress.ofLiteral(v).getHostAddress();
        } catch (IllegalArgumentException e) {
            throw new OptionsException("a rail address is not an IP address: '" + PeerText.line(v) + "'");
        }
    }

    private static String field(Map<String, String> f, String key) {
        String v = f.get(key);
        if (v == null) {
            throw new OptionsException("the message lacks " + key);
        }
        return v;
    }

    private static long longField(Map<String, String> f, String key, long min, long max) {
        String v = field(f, key);
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new OptionsException(key + " must be " + min + ".." + max + " (got '" + PeerText.line(v) + "')");
    }

    private static int intField(Map<String, String> f, String key, int min, int max) {
        return (int) longField(f, key, min, max);
    }
}
