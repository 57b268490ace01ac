package io.jperf.path;

import io.jperf.report.JsonReader;
import io.jperf.report.JsonWriter;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortState;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Writes {@link PathRecord}s and {@link Verdict}s as JSON with {@link JsonWriter}, and reads records
 * back ({@link #read(String)}, e.g. a peer's) so that {@code read(toJson(r)).equals(r)}. Unknown values
 * are {@code null} (never omitted), so every document has the same shape. Addresses are strings
 * ({@code "10.0.0.1"}, {@code "fd00::1"}); GIDs are in sysfs form. Some members are derived for
 * readers of reports ({@code route.tableName}, {@code rule.text}, {@code trafficClass.dscp}/{@code ecn},
 * {@code rdma.linkLayer}) and ignored by {@link #read}; the others carry the whole record. Stateless and
 * thread-safe.
 *
 * <pre>{@code
 * {"rdma": {"device": "mlx5_0", "port": 1, "linkLayer": "Ethernet", "portState": "ACTIVE", "activeMtu": 4096,
 *           "gid": {"index": 3, "value": "...", "type": "RoCE v2"}, "netdev": "eth2", "ifindex": 5, "vlanId": null,
 *           "portHasIpGid": true, "linkLayerEnum": "ETHERNET"},
 *  "source": "10.0.1.5", "destination": "10.0.2.7",
 *  "route": {"table": 101, "tableName": "101", "type": "unicast", "egress": "eth2", "egressIfindex": 5,
 *            "gateway": "10.0.1.1", "preferredSource": null, "matchedPrefix": "0.0.0.0/0", "protocol": 4,
 *            "destination": "10.0.2.7", "source": "10.0.1.5"},
 *  "rule": {"priority": 1000, "text": "1000: from 10.0.1.5 lookup 101", "table": 101, "basis": "...",
 *           "family": 2, "from": "10.0.1.5/32", "to": null, "iif": null, "oif": null, "tos": 0, "fwmark": 0,
 *           "fwmask": 0, "action": "lookup", "gotoTarget": 0, "invert": false, "suppressPrefixLength": -1,
 *           "unevaluated": []},
 *  "unboundSource": "10.0.0.5", "netdev": {"name": "eth2", "mtu": 9000, "operstate": "up", "addresses": [...]},
 *  "trafficClass": {"value": 106, "dscp": 26, "ecn": "ECT(0)"},
 *  "numa": {"nicNode": 1, "cpu": 12, "cpuNode": 1}, "gaps": []}
 * }</pre>
 */
public final class PathJson {

    private PathJson() {
    }

    /** A standalone document of one record. */
    public static String toJson(PathRecord record) {
        JsonWriter w = new JsonWriter();
        write(w, record);
        return w.toJson();
    }

    /** A standalone document {@code {"local": ..., "peer": ... or null, "verdicts": [...]}}. */
    public static String toJson(PathRecord local, PathRecord peerOrNull, List<Verdict> verdicts) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("local");
        write(w, local);
        w.name("peer");
        if (peerOrNull == null) {
            w.nullValue();
        } else {
            write(w, peerOrNull);
        }
        w.name("verdicts");
        writeVerdicts(w, verdicts);
        return w.endObject().toJson();
    }

    /** Writes the record as one JSON object value (after {@code name(...)} or inside an array). */
    public static void write(JsonWriter w, PathRecord r) {
        RdmaEnd d = r.rdma();
        w.beginObject();
        w.name("rdma").beginObject()
                .field("device", d.device())
                .field("port", d.port())
                .field("linkLayer", d.linkLayer().perftestName())
                .field("portState", d.portState().name())
                .field("activeMtu", d.activeMtu().bytes());
        w.name("gid").beginObject()
                .field("index", d.gidIndex())
                .field("value", d.gid().toString())
                .field("type", d.gidType().label())
                .endObject();
        optString(w, "netdev", d.netdev());
        w.field("ifindex", d.ifindex());
        w.name("vlanId");
        if (d.vlanId().isPresent()) {
            w.value(d.vlanId().getAsInt());
        } else {
            w.nullValue();
        }
        w.field("portHasIpGid", d.portHasIpGid())
                .field("linkLayerEnum", d.linkLayer().name());
        w.endObject();

        optAddress(w, "source", r.source());
        w.field("destination", Addr.text(r.destination()));

        w.name("route");
        if (r.route().isEmpty()) {
            w.nullValue();
        } else {
            Route rt = r.route().get();
            w.beginObject()
                    .field("table", rt.table())
                    .field("tableName", rt.tableName())
                    .field("type", rt.type().label());
            optString(w, "egress", rt.egressNetdev());
            w.field("egressIfindex", rt.egressIfindex());
            optAddress(w, "gateway", rt.gateway());
            optAddress(w, "preferredSource", rt.preferredSource());
            optString(w, "matchedPrefix", rt.matchedPrefix().map(Prefix::toString));
            w.name("protocol");
            if (rt.protocol() >= 0) {
                w.value(rt.protocol());
            } else {
                w.nullValue();
            }
            w.field("destination", Addr.text(rt.destination()));
            optAddress(w, "source", rt.source());
            w.endObject();
        }

        w.name("rule");
        if (r.rule().isEmpty()) {
            w.nullValue();
        } else {
            RuleMatch m = r.rule().get();
            PolicyRule p = m.rule();
            w.beginObject()
                    .field("priority", p.priority())
                    .field("text", p.toString())
                    .field("table", p.table())
                    .field("basis", m.basis())
                    .field("family", p.family());
            optString(w, "from", p.from().map(Prefix::toString));
            optString(w, "to", p.to().map(Prefix::toString));
            optString(w, "iif", p.iifName());
            optString(w, "oif", p.oifName());
            w.field("tos", p.tos())
                    .field("fwmark", p.fwmark())
                    .field("fwmask", p.fwmask())
                    .field("action", p.action().label())
                    .field("gotoTarget", p.gotoTarget())
                    .field("invert", p.invert())
                    .field("suppressPrefixLength", p.suppressPrefixLength());
            w.name("unevaluated").beginArray();
            for (String u : p.unevaluated()) {
                w.value(u);
            }
            w.endArray().endObject();
        }
        optAddress(w, "unboundSource", r.unboundSource());

        w.name("netdev");
        if (r.netdev().isEmpty()) {
            w.nullValue();
        } else {
            NetdevState n = r.netdev().get();
            w.beginObject()
                    .field("name", n.name())
                    .field("mtu", n.mtu())
                    .field("operstate", n.operstate());
            w.name("addresses").beginArray();
            for (InetAddress a : n.addresses()) {
                w.value(Addr.text(a));
            }
            w.endArray().endObject();
        }

        TrafficClass tc = r.trafficClass();
        w.name("trafficClass").beginObject()
                .field("value", tc.value())
                .field("dscp", tc.dscp())
                .field("ecn", tc.ecn().label())
                .endObject();
        NumaPlacement numa = r.numa();
        w.name("numa").beginObject()
                .field("nicNode", numa.nicNode())
                .field("cpu", numa.cpu())
                .field("cpuNode", numa.cpuNode())
                .endObject();
        w.name("gaps").beginArray();
        for (String g : r.gaps()) {
            w.value(g);
        }
        w.endArray();
        w.endObject();
    }

    /**
     * Reads a record from the text {@link #toJson(PathRecord)} wrote (e.g. a peer's), the exact
     * inverse: {@code read(toJson(r)).equals(r)}. See {@link #read(Map)} for what is checked.
     *
     * @throws IllegalArgumentException ({@link JsonReader.JsonException} for malformed JSON) if the
     *         text is not a valid record; the message names the offset or the field
     */
    public static PathRecord read(String json) {
        return read(JsonReader.parseObject(json));
    }

    /**
     * Reads a record from a parsed JSON object (from {@link JsonReader}), e.g. the {@code "local"}
     * or {@code "peer"} member of {@link #toJson(PathRecord, PathRecord, List)}. Unknown members
     * are ignored (a newer peer may add some); so are the derived ones ({@code route.tableName},
     * {@code rule.text}, {@code trafficClass.dscp}/{@code ecn}, {@code rdma.linkLayer}). Every other
     * member is required, with {@code null} only where the record has an empty {@code Optional}
     * (or, for {@code route.protocol}, -1).
     *
     * @throws IllegalArgumentException naming the field (e.g. {@code rdma.gid.value}) that is missing,
     *         of the wrong type, or out of range
     */
    public static PathRecord read(Map<String, Object> object) {
        In r = new In(object, "");
        In d = r.obj("rdma");
        In gid = d.obj("gid");
        OptionalInt vlan = d.isNull("vlanId") ? OptionalInt.empty() : OptionalInt.of(d.integer("vlanId"));
        RdmaEnd rdma = d.build(() -> new RdmaEnd(d.str("device"), d.integer("port"),
                d.constant("linkLayerEnum", LinkLayer.values(), LinkLayer::name),
                d.constant("portState", PortState.values(), PortState::name),
                d.mtu("activeMtu"),
                gid.integer("index"), gid.gid("value"), gid.constant("type", GidType.values(), GidType::label),
                d.optStr("netdev"), d.integer("ifindex"), vlan, d.bool("portHasIpGid")));

        Optional<Route> route = r.optObj("route").map(rt -> rt.build(() -> new Route(rt.addr("destination"),
                rt.optAddr("source"), rt.integer("table"), rt.constant("type", RouteType.values(), RouteType::label),
                rt.integer("egressIfindex"), rt.optStr("egress"), rt.optAddr("gateway"), rt.optAddr("preferredSource"),
                rt.optPrefix("matchedPrefix"), rt.isNull("protocol") ? -1 : rt.integer("protocol"))));

        Optional<RuleMatch> rule = r.optObj("rule").map(m -> m.build(() -> new RuleMatch(new PolicyRule(
                m.integer("family"), m.lng("priority"), m.optPrefix("from"), m.optPrefix("to"), m.optStr("iif"),
                m.optStr("oif"), m.lng("fwmark"), m.lng("fwmask"), m.integer("tos"),
                m.constant("action", RuleAction.values(), RuleAction::label), m.lng("table"), m.lng("gotoTarget"),
                m.bool("invert"), m.integer("suppressPrefixLength"), m.strings("unevaluated")), m.str("basis"))));

        Optional<NetdevState> netdev = r.optObj("netdev").map(n -> n.build(() -> new NetdevState(n.str("name"),
                n.integer("mtu"), n.str("operstate"), n.addrs("addresses"))));

        In tc = r.obj("trafficClass");
        TrafficClass trafficClass = tc.build(() -> new TrafficClass(tc.integer("value")));
        In numa = r.obj("numa");
        NumaPlacement placement = new NumaPlacement(numa.integer("nicNode"), numa.integer("cpu"),
                numa.integer("cpuNode"));
        return new PathRecord(rdma, r.optAddr("source"), r.addr("destination"), route, rule, r.optAddr("unboundSource"),
                netdev, trafficClass, placement, r.strings("gaps"));
    }

    /** Writes the verdicts as one JSON array value. */
    public static void writeVerdicts(JsonWriter w, List<Verdict> verdicts) {
        w.beginArray();
        for (Verdict v : verdicts) {
            w.beginObject()
                    .field("id", v.id())
                    .field("check", v.check())
                    .field("severity", v.severity().name())
                    .field("summary", v.summary());
            w.name("evidence").beginObject();
            for (Map.Entry<String, String> e : v.evidence().entrySet()) {
                w.field(e.getKey(), e.getValue());
            }
            w.endObject();
            w.field("fixHint", v.fixHint()).endObject();
        }
        w.endArray();
    }

    private static void optString(JsonWriter w, String name, Optional<String> v) {
        w.name(name).value(v.orElse(null));
    }

    private static void optAddress(JsonWriter w, String name, Optional<InetAddress> v) {
        w.name(name).value(v.map(Addr::text).orElse(null));
    }

    /** One JSON object of a record being read, with its path for messages ({@code "rdma.gid."}). */
    private static final class In {
        private final Map<String, Object> m;
        private final String path;

        In(Map<String, Object> m, String path) {
            this.m = m;
            this.path = path;
        }

        private IllegalArgumentException bad(String name, String problem) {
            return new IllegalArgumentException("path record: field '" + path + name + "' " + problem);
        }

        /** The member's value, which may be null; a missing member is an error. */
        private Object raw(String name) {
            if (!m.containsKey(name)) {
                throw bad(name, "is missing");
            }
            return m.get(name);
        }

        boolean isNull(String name) {
            return raw(name) == null;
        }

        private <T> T typed(String name, Class<T> type, String what) {
            Object v = raw(name);
            if (v == null) {
                throw bad(name, "is null, expected " + what);
            }
            if (!type.isInstance(v)) {
                throw bad(name, "is " + kind(v) + ", expected " + what);
            }
            return type.cast(v);
        }

        String str(String name) {
            return typed(name, String.class, "a string");
        }

        Optional<String> optStr(String name) {
            return isNull(name) ? Optional.empty() : Optional.of(str(name));
        }

        long lng(String name) {
            return typed(name, Long.class, "an integer");
        }

        int integer(String name) {
            long v = lng(name);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw bad(name, "is " + v + ", out of the 32-bit range");
            }
            return (int) v;
        }

        boolean bool(String name) {
            return typed(name, Boolean.class, "true or false");
        }

        @SuppressWarnings("unchecked")
        In obj(String name) {
            return new In(typed(name, Map.class, "an object"), path + name + ".");
        }

        Optional<In> optObj(String name) {
            return isNull(name) ? Optional.empty() : Optional.of(obj(name));
        }

        private List<?> list(String name) {
            return typed(name, List.class, "an array");
        }

        List<String> strings(String name) {
            List<?> l = list(name);
            List<String> out = new ArrayList<>(l.size());
            for (int i = 0; i < l.size(); i++) {
                if (!(l.get(i) instanceof String e)) {
                    throw bad(name + "[" + i + "]", "is " + kind(l.get(i)) + ", expected a string");
                }
                out.add(e);
            }
            return out;
        }

        List<InetAddress> addrs(String name) {
            List<String> texts = strings(name);
            List<InetAddress> out = new ArrayList<>(texts.size());
            for (int i = 0; i < texts.size(); i++) {
                out.add(address(name + "[" + i + "]", texts.get(i)));
            }
            return out;
        }

        InetAddress addr(String name) {
            return address(name, str(name));
        }

        Optional<InetAddress> optAddr(String name) {
            return isNull(name) ? Optional.empty() : Optional.of(addr(name));
        }

        Optional<Prefix> optPrefix(String name) {
            if (isNull(name)) {
                return Optional.empty();
            }
            String text = str(name);
            int slash = text.lastIndexOf('/');
            String len = slash < 0 ? "" : text.substring(slash + 1);
            if (len.isEmpty() || len.length() > 3 || !len.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw bad(name, "is " + quote(text) + ", not an address/length prefix");
            }
            InetAddress a = address(name, text.substring(0, slash));
            try {
                return Optional.of(new Prefix(a, Integer.parseInt(len)));
            } catch (IllegalArgumentException e) {
                throw bad(name, "is " + quote(text) + ": " + e.getMessage());
            }
        }

        Gid gid(String name) {
            String text = str(name);
            try {
                return Gid.parse(text);
            } catch (IllegalArgumentException e) {
                throw bad(name, "is " + quote(text) + ", not a GID");
            }
        }

        Mtu mtu(String name) {
            int bytes = integer(name);
            try {
                return Mtu.fromBytes(bytes);
            } catch (IllegalArgumentException e) {
                throw bad(name, "is " + e.getMessage());
            }
        }

        /** The enum constant whose {@code label} is the member's string. */
        <E> E constant(String name, E[] values, Function<E, String> label) {
            Object v = raw(name);
            String text = v instanceof String t ? t : null;
            if (text != null) {
                for (E e : values) {
                    if (label.apply(e).equals(text)) {
                        return e;
                    }
                }
            }
            StringBuilder valid = new StringBuilder();
            for (E e : values) {
                valid.append(valid.isEmpty() ? "" : ", ").append(label.apply(e));
            }
            throw bad(name, "is " + (text == null ? kind(v) : quote(text)) + ", expected one of " + valid);
        }

        /** Runs a record constructor, naming this object if its own checks reject the values. */
        <T> T build(Supplier<T> constructor) {
            try {
                return constructor.get();
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("path record: ")) {
                    throw e;
                }
                String where = path.isEmpty() ? "" : " in '" + path.substring(0, path.length() - 1) + "'";
                throw new IllegalArgumentException("path record: invalid value" + where + ": " + e.getMessage(), e);
            }
        }

        /**
         * A literal address, never a host name (no DNS lookup for peer input). Text with a colon is
         * always an {@link java.net.Inet6Address}, even an IPv4-mapped one, as {@link Addr#text} wrote it.
         */
        private InetAddress address(String name, String text) {
            try {
                InetAddress a = InetAddress.ofLiteral(text);
                if (a instanceof Inet4Address && text.indexOf(':') >= 0) {
                    byte[] mapped = new byte[16];
                    mapped[10] = (byte) 0xff;
                    mapped[11] = (byte) 0xff;
                    System.arraycopy(a.getAddress(), 0, mapped, 12, 4);
                    return Inet6Address.getByAddress(null, mapped, null);
                }
                return a;
            } catch (IllegalArgumentException | UnknownHostException e) {
                throw bad(name, "is " + quote(text) + ", not an IP address");
            }
        }

        private static String kind(Object v) {
            return switch (v) {
                case null -> "null";
                case String t -> "a string";
                case Long n -> "an integer";
                case Double n -> "a fractional number";
                case Boolean b -> "a boolean";
                case Map<?, ?> o -> "an object";
                case List<?> l -> "an array";
                default -> v.getClass().getSimpleName();
            };
        }

        /** Peer text for a message: quoted, at most 40 chars, controls escaped. */
        private static String quote(String text) {
            StringBuilder sb = new StringBuilder("\"");
            for (int i = 0; i < text.length() && i < 40; i++) {
                char c = text.charAt(i);
                sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format(Locale.ROOT, "\\u%04x", (int) c));
            }
            return sb.append(text.length() > 40 ? "...\"" : "\"").toString();
        }
    }
}
