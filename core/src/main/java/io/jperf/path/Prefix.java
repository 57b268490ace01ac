package io.jperf.path;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Objects;

/**
 * An IP prefix such as {@code 10.0.1.0/24}, as used by routes and policy-rule selectors.
 * Immutable and thread-safe.
 *
 * @param address the prefix address (host bits as the kernel reported them)
 * @param length  the prefix length, 0..32 for IPv4, 0..128 for IPv6
 */
public record Prefix(InetAddress address, int length) {

    public Prefix {
        Objects.requireNonNull(address, "address");
        int max = address.getAddress().length * 8;
        if (length < 0 || length > max) {
            throw new IllegalArgumentException("prefix length " + length + " outside 0.." + max);
        }
    }

    /** {@code true} if {@code ip} is of the same family and its first {@link #length()} bits match. */
    public boolean contains(InetAddress ip) {
        byte[] a = address.getAddress();
        byte[] b = ip.getAddress();
        if (a.length != b.length) {
            return false;
        }
        int full = length / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        int rest = length % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (a[full] & mask) == (b[full] & mask);
    }

    /** {@code true} for IPv4. */
    public boolean isIpv4() {
        return address instanceof Inet4Address;
    }

    /** {@code 10.0.1.0/24}, {@code fd00::/64}. */
    @Override
    public String toString() {
        return Addr.text(address) + "/" + length;
    }
}
