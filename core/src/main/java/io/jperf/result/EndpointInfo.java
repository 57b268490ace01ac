package io.jperf.result;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One QP end as exchanged with the peer and printed in perftest's address lines. Immutable (the GID array
 * is copied in and out).
 *
 * @param lid 16-bit LID (0 on RoCE)
 * @param qpn 24-bit QP number
 * @param psn 24-bit initial packet sequence number
 * @param rkey remote key of the buffer (unsigned 32-bit)
 * @param vaddr buffer address (unsigned 64-bit)
 * @param gid 16 GID bytes, or null when no GID is used
 * @param gidIndex the GID table index used, or -1 for none
 */
public record EndpointInfo(int lid, int qpn, int psn, int rkey, long vaddr, byte[] gid, int gidIndex) {

    public EndpointInfo {
        if (gid != null) {
            if (gid.length != 16) {
                throw new IllegalArgumentException("GID must be 16 bytes (got " + gid.length + ")");
            }
            gid = gid.clone();
        }
    }

    /** The GID bytes (a copy), or null. */
    @Override
    public byte[] gid() {
        return gid == null ? null : gid.clone();
    }

    /** The GID in IPv6 notation groups ({@code fe80:0000:...}), or null. */
    public String gidText() {
        if (gid == null) {
            return null;
        }
        String hex = HexFormat.of().formatHex(gid);
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 32; i += 4) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(hex, i, i + 4);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EndpointInfo e && lid == e.lid && qpn == e.qpn && psn == e.psn && rkey == e.rkey
                && vaddr == e.vaddr && gidIndex == e.gidIndex && Arrays.equals(gid, e.gid);
    }

    @Override
    public int hashCode() {
        int h = lid;
        h = 31 * h + qpn;
        h = 31 * h + psn;
        h = 31 * h + rkey;
        h = 31 * h + Long.hashCode(vaddr);
        h = 31 * h + gidIndex;
        return 31 * h + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return "EndpointInfo[lid=" + lid + ", qpn=0x" + Integer.toHexString(qpn) + ", psn=0x"
                + Integer.toHexString(psn) + ", rkey=0x" + Integer.toHexString(rkey) + ", vaddr=0x"
                + Long.toHexString(vaddr) + ", gid=" + (gid == null ? "none" : gidText()) + ", gidIndex="
                + gidIndex + "]";
    }
}
