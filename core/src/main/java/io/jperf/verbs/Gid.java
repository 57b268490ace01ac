package io.jperf.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 16-byte global identifier. On RoCE it is derived from an IP address on a netdev: a RoCE v2
 * GID for IPv4 address {@code a.b.c.d} is {@code ::ffff:a.b.c.d}; index 0 is usually the
 * link-local {@code fe80::} entry. Immutable.
 */
public final class Gid {
    public static final int BYTES = 16;
    private static final HexFormat HEX = HexFormat.of();
    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    public static Gid of(byte[] raw) {
        if (raw.length != BYTES) {
            throw new IllegalArgumentException("a GID has 16 bytes, not " + raw.length);
        }
        return new Gid(raw.clone());
    }

    /** The RoCE v2 GID of an IPv4 address ({@code ::ffff:a.b.c.d}) or the GID of an IPv6 address. */
    public static Gid fromAddress(InetAddress address) {
        byte[] raw = new byte[BYTES];
        byte[] ip = address.getAddress();
        if (address instanceof Inet4Address) {
            raw[10] = (byte) 0xff;
            raw[11] = (byte) 0xff;
            System.arraycopy(ip, 0, raw, 12, 4);
        } else {
            System.arraycopy(ip, 0, raw, 0, BYTES);
        }
        return new Gid(raw);
    }

    /** Parses the sysfs form {@code 0000:0000:0000:0000:0000:ffff:0a14:0001}. */
    public static Gid parse(String text) {
        String hex = text.strip().replace(":", "");
        if (hex.length() != 2 * BYTES) {
            throw new IllegalArgumentException("not a GID: '" + text + "'");
        }
        return new Gid(HEX.parseHex(hex));
    }

    public byte[] bytes() {
        return raw.clone();
    }

    public boolean isZero() {
        for (byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** True for {@code ::ffff:a.b.c.d}, the GID of an IPv4 address. */
    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return raw[10] == (byte) 0xff && raw[11] == (byte) 0xff;
    }

    /** True for {@code fe80::/10}. */
    public boolean isLinkLocal() {
        return raw[0] == (byte) 0xfe && (raw[1] & 0xc0) == 0x80;
    }

    /** The IP address this GID encodes: IPv4 for mapped GIDs, IPv6 otherwise. */
    public InetAddress toInetAddress() {
        try {
            if (isIpv4Mapped()) {
                return InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16));
            }
            return Inet6Address.getByAddress(null, raw.clone(), null);
        } catch (UnknownHostException e) {
            throw new AssertionError("16 or 4 bytes are always an address", e);
        }
    }

    /** The sysfs / ibv_devinfo form: eight groups of four hex digits. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < BYTES; i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(HEX.toHexDigits(raw[i])).append(HEX.toHexDigits(raw[i + 1]));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid other && Arrays.equals(raw, other.raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }
}
