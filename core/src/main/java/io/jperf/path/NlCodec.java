package io.jperf.path;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Builds rtnetlink requests and parses replies, byte for byte: {@code nlmsghdr}, {@code rtmsg},
 * {@code fib_rule_hdr}, {@code ifinfomsg}, {@code ifaddrmsg} and their {@code rtattr}s, in host
 * byte order, every message and attribute padded to 4 bytes. Stateless and thread-safe.
 * Malformed input throws {@link MalformedNetlinkException}, never an index error.
 */
final class NlCodec {

    private static final ByteOrder HOST = ByteOrder.nativeOrder();

    private NlCodec() {
    }

    /** A reply that does not follow the netlink format. */
    static final class MalformedNetlinkException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedNetlinkException(String message) {
            super(message);
        }
    }

    /** The body of an {@code NLMSG_ERROR}: a negative errno (0 = ack) and the kernel's extended-ack text. */
    record NlError(int errno, Optional<String> kernelMessage) {
    }

    // ---------------------------------------------------------------- requests

    /**
     * {@code RTM_GETROUTE} as {@code ip route get DST [from SRC] [oif N]}: one request, one
     * {@code RTM_NEWROUTE} answer. {@code RTM_F_LOOKUP_TABLE} asks for the table that answered;
     * with {@code fibMatch} the kernel returns the matching FIB entry (prefix, protocol) instead of
     * the resolved route.
     */
    static byte[] routeGetRequest(int seq, InetAddress destination, InetAddress sourceOrNull, int oif,
                                  boolean fibMatch) {
        byte[] dst = destination.getAddress();
        int family = family(destination);
        if (sourceOrNull != null && family(sourceOrNull) != family) {
            throw new IllegalArgumentException("source " + Addr.text(sourceOrNull) + " and destination "
                    + Addr.text(destination) + " are of different families");
        }
        int attrs = attrLength(dst.length) + (sourceOrNull == null ? 0 : attrLength(dst.length))
                + (oif > 0 ? attrLength(4) : 0);
        ByteBuffer b = header(Nl.RTM_GETROUTE, Nl.NLM_F_REQUEST, seq, Nl.RTMSG_LEN + attrs);
        b.put((byte) family).put((byte) (dst.length * 8)).put((byte) (sourceOrNull == null ? 0 : dst.length * 8))
                .put((byte) 0) // tos
                .put((byte) 0).put((byte) 0).put((byte) 0).put((byte) 0) // table, protocol, scope, type
                .putInt(Nl.RTM_F_LOOKUP_TABLE | (fibMatch ? Nl.RTM_F_FIB_MATCH : 0));
        putAttr(b, Nl.RTA_DST, dst);
        if (sourceOrNull != null) {
            putAttr(b, Nl.RTA_SRC, sourceOrNull.getAddress());
        }
        if (oif > 0) {
            putAttr(b, Nl.RTA_OIF, intBytes(oif));
        }
        return b.array();
    }

    /** {@code RTM_GETRULE} dump of one family, like {@code ip rule show}. */
    static byte[] ruleDumpRequest(int seq, int family) {
        ByteBuffer b = header(Nl.RTM_GETRULE, Nl.NLM_F_REQUEST | Nl.NLM_F_DUMP, seq, Nl.FIB_RULE_HDR_LEN);
        b.put((byte) family).put(new byte[7]).putInt(0);
        return b.array();
    }

    /** {@code RTM_GETLINK} for one interface index (no dump). */
    static byte[] linkGetRequest(int seq, int ifindex) {
        ByteBuffer b = header(Nl.RTM_GETLINK, Nl.NLM_F_REQUEST, seq, Nl.IFINFOMSG_LEN);
        b.put((byte) 0).put((byte) 0).putShort((short) 0).putInt(ifindex).putInt(0).putInt(0);
        return b.array();
    }

    /** {@code RTM_GETADDR} dump of one family (the kernel answers for all interfaces). */
    static byte[] addressDumpRequest(int seq, int family) {
        ByteBuffer b = header(Nl.RTM_GETADDR, Nl.NLM_F_REQUEST | Nl.NLM_F_DUMP, seq, Nl.IFADDRMSG_LEN);
        b.put((byte) family).put((byte) 0).put((byte) 0).put((byte) 0).putInt(0);
        return b.array();
    }

    private static ByteBuffer header(int type, int flags, int seq, int bodyLength) {
        int len = Nl.NLMSG_HDRLEN + bodyLength;
        ByteBuffer b = ByteBuffer.allocate(len).order(HOST);
        b.putInt(len).putShort((short) type).putShort((short) flags).putInt(seq).putInt(0);
        return b;
    }

    private static int attrLength(int payload) {
        return Nl.align(4 + payload);
    }

    private static void putAttr(ByteBuffer b, int type, byte[] value) {
        b.putShort((short) (4 + value.length)).putShort((short) type).put(value);
        b.position(b.position() + Nl.align(4 + value.length) - 4 - value.length);
    }

    private static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).order(HOST).putInt(v).array();
    }

    static int family(InetAddress a) {
        return a instanceof Inet4Address ? Nl.AF_INET : Nl.AF_INET6;
    }

    // ---------------------------------------------------------------- datagrams

    /** Splits one received datagram into its messages, checking every length. */
    static List<NlMessage> parseDatagram(byte[] datagram) {
        ByteBuffer b = ByteBuffer.wrap(datagram).order(HOST);
        List<NlMessage> out = new ArrayList<>();
        int pos = 0;
        while (datagram.length - pos >= Nl.NLMSG_HDRLEN) {
            int len = b.getInt(pos);
            if (len < Nl.NLMSG_HDRLEN || len > datagram.length - pos) {
                throw new MalformedNetlinkException("netlink message at offset " + pos + " claims " + len
                        + " bytes; " + (datagram.length - pos) + " remain in the " + datagram.length + "-byte datagram");
            }
            int type = b.getShort(pos + 4) & 0xffff;
            int flags = b.getShort(pos + 6) & 0xffff;
            int seq = b.getInt(pos + 8);
            int pid = b.getInt(pos + 12);
            byte[] payload = new byte[len - Nl.NLMSG_HDRLEN];
            b.get(pos + Nl.NLMSG_HDRLEN, payload);
            out.add(new NlMessage(type, flags, seq, pid, payload));
            pos += Nl.align(len);
        }
        if (pos < datagram.length && datagram.length - pos >= 4) {
            throw new MalformedNetlinkException(
                    (datagram.length - pos) + " trailing bytes after the last netlink message");
        }
        return out;
    }

    /** Parses an {@code NLMSG_ERROR} payload: errno (positive) and the extended-ack message, if any. */
    static NlError parseError(NlMessage m) {
        byte[] p = m.payload();
        if (p.length < 4) {
            throw new MalformedNetlinkException("NLMSG_ERROR with " + p.length + " payload bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(p).order(HOST);
        int errno = -b.getInt(0);
        Optional<String> text = Optional.empty();
        if ((m.flags() & Nl.NLM_F_ACK_TLVS) != 0 && p.length >= 4 + Nl.NLMSG_HDRLEN) {
            int echoed = (m.flags() & Nl.NLM_F_CAPPED) != 0 ? Nl.NLMSG_HDRLEN : b.getInt(4);
            int start = 4 + Nl.align(echoed);
            if (start <= p.length) {
                byte[] msg = attributes(p, start, "NLMSG_ERROR ext-ack").get(Nl.NLMSGERR_ATTR_MSG);
                if (msg != null) {
                    text = Optional.of(cString(msg));
                }
            }
        }
        return new NlError(errno, text);
    }

    /**
     * The attributes from {@code offset} to the end of {@code payload}, by type (nested and
     * byte-order flag bits removed); a repeated type keeps its first value.
     */
    static Map<Integer, byte[]> attributes(byte[] payload, int offset, String what) {
        Map<Integer, byte[]> out = new HashMap<>();
        ByteBuffer b = ByteBuffer.wrap(payload).order(HOST);
        int pos = offset;
        while (payload.length - pos >= 4) {
            int len = b.getShort(pos) & 0xffff;
            int type = b.getShort(pos + 2) & Nl.NLA_TYPE_MASK;
            if (len < 4 || len > payload.length - pos) {
                throw new MalformedNetlinkException(what + ": attribute type " + type + " at offset " + pos
                        + " claims " + len + " bytes; " + (payload.length - pos) + " remain");
            }
            byte[] value = new byte[len - 4];
            b.get(pos + 4, value);
            out.putIfAbsent(type, value);
            pos += Nl.align(len);
        }
        return out;
    }

    // ---------------------------------------------------------------- RTM_NEWROUTE

    /**
     * Parses an {@code RTM_NEWROUTE} answer to {@link #routeGetRequest}. The egress name is left
     * empty (the caller resolves the index); matched prefix and protocol are filled only for the
     * answer to a FIB-match request (the kernel does not echo the flag, so the caller says).
     */
    static Route parseRoute(NlMessage m, InetAddress askedDestination, InetAddress askedSourceOrNull,
                            boolean fibMatch) {
        expectType(m, Nl.RTM_NEWROUTE);
        byte[] p = m.payload();
        if (p.length < Nl.RTMSG_LEN) {
            throw new MalformedNetlinkException("RTM_NEWROUTE with " + p.length + " bytes, rtmsg needs 12");
        }
        int dstLen = p[1] & 0xff;
        int table = p[4] & 0xff;
        int protocol = p[5] & 0xff;
        RouteType type = RouteType.fromNative(p[7] & 0xff);
        Map<Integer, byte[]> a = attributes(p, Nl.RTMSG_LEN, "RTM_NEWROUTE");
        if (a.containsKey(Nl.RTA_TABLE)) {
            table = u32(a.get(Nl.RTA_TABLE), "RTA_TABLE");
        }
        int oif = a.containsKey(Nl.RTA_OIF) ? u32(a.get(Nl.RTA_OIF), "RTA_OIF") : 0;
        Optional<InetAddress> gateway = Optional.ofNullable(a.get(Nl.RTA_GATEWAY)).map(v -> address(v, "RTA_GATEWAY"));
        Optional<InetAddress> prefsrc = Optional.ofNullable(a.get(Nl.RTA_PREFSRC)).map(v -> address(v, "RTA_PREFSRC"));
        Optional<Prefix> matched = Optional.empty();
        if (fibMatch) {
            byte[] dst = a.get(Nl.RTA_DST);
            InetAddress base = dst != null ? address(dst, "RTA_DST") : anyAddress(askedDestination);
            matched = Optional.of(new Prefix(base, dstLen));
        }
        return new Route(askedDestination, Optional.ofNullable(askedSourceOrNull), table, type, oif, Optional.empty(),
                gateway, prefsrc, matched, fibMatch ? protocol : -1);
    }

    // ---------------------------------------------------------------- RTM_NEWRULE

    /** Parses one {@code RTM_NEWRULE} message of a rule dump. */
    static PolicyRule parseRule(NlMessage m) {
        expectType(m, Nl.RTM_NEWRULE);
        byte[] p = m.payload();
        if (p.length < Nl.FIB_RULE_HDR_LEN) {
            throw new MalformedNetlinkException("RTM_NEWRULE with " + p.length + " bytes, fib_rule_hdr needs 12");
        }
        int family = p[0] & 0xff;
        int dstLen = p[1] & 0xff;
        int srcLen = p[2] & 0xff;
        int tos = p[3] & 0xff;
        long table = p[4] & 0xff;
        RuleAction action = RuleAction.fromNative(p[7] & 0xff);
        int flags = ByteBuffer.wrap(p).order(HOST).getInt(8);
        Map<Integer, byte[]> a = attributes(p, Nl.FIB_RULE_HDR_LEN, "RTM_NEWRULE");
        if (a.containsKey(Nl.FRA_TABLE)) {
            table = u32(a.get(Nl.FRA_TABLE), "FRA_TABLE") & 0xffffffffL;
        }
        long priority = a.containsKey(Nl.FRA_PRIORITY) ? u32(a.get(Nl.FRA_PRIORITY), "FRA_PRIORITY") & 0xffffffffL : 0;
        Optional<Prefix> from = prefix(a.get(Nl.FRA_SRC), srcLen, "FRA_SRC");
        Optional<Prefix> to = prefix(a.get(Nl.FRA_DST), dstLen, "FRA_DST");
        Optional<String> iif = Optional.ofNullable(a.get(Nl.FRA_IIFNAME)).map(NlCodec::cString);
        Optional<String> oif = Optional.ofNullable(a.get(Nl.FRA_OIFNAME)).map(NlCodec::cString);
        long mark = a.containsKey(Nl.FRA_FWMARK) ? u32(a.get(Nl.FRA_FWMARK), "FRA_FWMARK") & 0xffffffffL : 0;
        long mask = a.containsKey(Nl.FRA_FWMASK) ? u32(a.get(Nl.FRA_FWMASK), "FRA_FWMASK") & 0xffffffffL : 0;
        long gotoTarget = a.containsKey(Nl.FRA_GOTO) ? u32(a.get(Nl.FRA_GOTO), "FRA_GOTO") & 0xffffffffL : 0;
        int suppress = a.containsKey(Nl.FRA_SUPPRESS_PREFIXLEN)
                ? u32(a.get(Nl.FRA_SUPPRESS_PREFIXLEN), "FRA_SUPPRESS_PREFIXLEN") : -1;
        List<String> unevaluated = new ArrayList<>();
        if (a.containsKey(Nl.FRA_UID_RANGE)) {
            unevaluated.add("uidrange");
        }
        if (a.containsKey(Nl.FRA_IP_PROTO)) {
            unevaluated.add("ipproto");
        }
        if (a.containsKey(Nl.FRA_SPORT_RANGE)) {
            unevaluated.add("sport");
        }
        if (a.containsKey(Nl.FRA_DPORT_RANGE)) {
            unevaluated.add("dport");
        }
        if (a.containsKey(Nl.FRA_L3MDEV) && a.get(Nl.FRA_L3MDEV).length > 0 && a.get(Nl.FRA_L3MDEV)[0] != 0) {
            unevaluated.add("l3mdev");
        }
        if (a.containsKey(Nl.FRA_TUN_ID)) {
            unevaluated.add("tun_id");
        }
        if (a.containsKey(Nl.FRA_SUPPRESS_IFGROUP) && u32(a.get(Nl.FRA_SUPPRESS_IFGROUP), "FRA_SUPPRESS_IFGROUP") != -1) {
            unevaluated.add("suppress_ifgroup");
        }
        if ((flags & Nl.FIB_RULE_IIF_DETACHED) != 0) {
            unevaluated.add("iif-detached");
        }
        if ((flags & Nl.FIB_RULE_OIF_DETACHED) != 0) {
            unevaluated.add("oif-detached");
        }
        return new PolicyRule(family, priority, from, to, iif, oif, mark, mask, tos, action,
                action == RuleAction.TO_TABLE ? table : 0, gotoTarget, (flags & Nl.FIB_RULE_INVERT) != 0, suppress,
                unevaluated);
    }

    // ---------------------------------------------------------------- RTM_NEWLINK / RTM_NEWADDR

    /** Parses an {@code RTM_NEWLINK}: index, name, MTU, operstate and (for VLAN devices) the VLAN id. */
    static LinkInfo parseLink(NlMessage m) {
        expectType(m, Nl.RTM_NEWLINK);
        byte[] p = m.payload();
        if (p.length < Nl.IFINFOMSG_LEN) {
            throw new MalformedNetlinkException("RTM_NEWLINK with " + p.length + " bytes, ifinfomsg needs 16");
        }
        int index = ByteBuffer.wrap(p).order(HOST).getInt(4);
        Map<Integer, byte[]> a = attributes(p, Nl.IFINFOMSG_LEN, "RTM_NEWLINK");
        String name = a.containsKey(Nl.IFLA_IFNAME) ? cString(a.get(Nl.IFLA_IFNAME)) : "if" + index;
        int mtu = a.containsKey(Nl.IFLA_MTU) ? u32(a.get(Nl.IFLA_MTU), "IFLA_MTU") : 0;
        String oper = a.containsKey(Nl.IFLA_OPERSTATE) && a.get(Nl.IFLA_OPERSTATE).length >= 1
                ? LinkInfo.operstateName(a.get(Nl.IFLA_OPERSTATE)[0] & 0xff) : "unknown";
        OptionalInt vlan = OptionalInt.empty();
        byte[] linkInfo = a.get(Nl.IFLA_LINKINFO);
        if (linkInfo != null) {
            Map<Integer, byte[]> info = attributes(linkInfo, 0, "IFLA_LINKINFO");
            byte[] kind = info.get(Nl.IFLA_INFO_KIND);
            byte[] data = info.get(Nl.IFLA_INFO_DATA);
            if (kind != null && "vlan".equals(cString(kind)) && data != null) {
                byte[] id = attributes(data, 0, "IFLA_INFO_DATA").get(Nl.IFLA_VLAN_ID);
                if (id != null && id.length >= 2) {
                    vlan = OptionalInt.of(ByteBuffer.wrap(id).order(HOST).getShort(0) & 0xfff);
                }
            }
        }
        return new LinkInfo(index, name, mtu, oper, vlan);
    }

    /** An address of one interface from {@code RTM_NEWADDR}. */
    record AddressEntry(int ifindex, InetAddress address, int prefixLength) {
    }

    /** Parses an {@code RTM_NEWADDR}: {@code IFA_LOCAL} if present (point-to-point), else {@code IFA_ADDRESS}. */
    static Optional<AddressEntry> parseAddress(NlMessage m) {
        expectType(m, Nl.RTM_NEWADDR);
        byte[] p = m.payload();
        if (p.length < Nl.IFADDRMSG_LEN) {
            throw new MalformedNetlinkException("RTM_NEWADDR with " + p.length + " bytes, ifaddrmsg needs 8");
        }
        int prefixLength = p[1] & 0xff;
        int index = ByteBuffer.wrap(p).order(HOST).getInt(4);
        Map<Integer, byte[]> a = attributes(p, Nl.IFADDRMSG_LEN, "RTM_NEWADDR");
        byte[] raw = a.getOrDefault(Nl.IFA_LOCAL, a.get(Nl.IFA_ADDRESS));
        return raw == null ? Optional.empty()
                : Optional.of(new AddressEntry(index, address(raw, "IFA_ADDRESS"), prefixLength));
    }

    // ---------------------------------------------------------------- helpers

    private static void expectType(NlMessage m, int type) {
        if (m.type() != type) {
            throw new MalformedNetlinkException("expected " + Nl.messageTypeName(type) + ", got " + m);
        }
    }

    private static int u32(byte[] v, String what) {
        if (v.length < 4) {
            throw new MalformedNetlinkException(what + " has " + v.length + " bytes, expected 4");
        }
        try {
            return ByteBuffer.wrap(v).order(HOST).getInt(0);
        } catch (BufferUnderflowException e) {
            throw new MalformedNetlinkException(what);
        }
    }

    private static InetAddress address(byte[] v, String what) {
        if (v.length != 4 && v.length != 16) {
            throw new MalformedNetlinkException(what + " has " + v.length + " bytes, not an IPv4/IPv6 address");
        }
        try {
            return InetAddress.getByAddress(v);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static InetAddress anyAddress(InetAddress sameFamilyAs) {
        return address(new byte[sameFamilyAs.getAddress().length], "any");
    }

    private static Optional<Prefix> prefix(byte[] raw, int length, String what) {
        if (length == 0) {
            return Optional.empty();
        }
        if (raw == null) {
            throw new MalformedNetlinkException(what + " missing for a /" + length + " selector");
        }
        return Optional.of(new Prefix(address(raw, what), length));
    }

    /** A NUL-terminated (or unterminated) ASCII/UTF-8 string attribute. */
    static String cString(byte[] v) {
        int end = 0;
        while (end < v.length && v[end] != 0) {
            end++;
        }
        return new String(v, 0, end, StandardCharsets.UTF_8);
    }
}
