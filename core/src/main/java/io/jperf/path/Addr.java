package io.jperf.path;

import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Address text as {@code ip} prints it: dotted IPv4, RFC 5952 compressed IPv6 ({@code fd00::1}).
 * Public so that other packages ({@code io.jperf.cm}) print addresses the same way. Stateless and
 * thread-safe.
 */
public final class Addr {
    private Addr() {
    }

    /**
     * The text of an address, without scope or host name: {@code 10.0.0.1}, {@code fd00::1},
     * {@code fe80::1:0:0:2} (the longest run of two or more zero groups, the first if tied, becomes
     * {@code ::}; hex digits in lower case, no leading zeros).
     *
     * @param a the address, not null
     * @return the address as {@code ip} prints it
     * @throws NullPointerException if {@code a} is null
     */
    public static String text(InetAddress a) {
        if (!(a instanceof Inet6Address)) {
            return a.getHostAddress();
        }
        byte[] b = a.getAddress();
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }
}
