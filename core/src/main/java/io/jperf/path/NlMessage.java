package io.jperf.path;

import java.util.Arrays;

/**
 * One netlink message: the {@code nlmsghdr} fields and the payload after the 16-byte header.
 *
 * @param type    {@code nlmsg_type}
 * @param flags   {@code nlmsg_flags}
 * @param seq     {@code nlmsg_seq}
 * @param pid     {@code nlmsg_pid}
 * @param payload the bytes after the header, {@code nlmsg_len - 16} of them
 */
record NlMessage(int type, int flags, int seq, int pid, byte[] payload) {

    NlMessage {
        payload = payload.clone();
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NlMessage m && type == m.type && flags == m.flags && seq == m.seq && pid == m.pid
                && Arrays.equals(payload, m.payload);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * type + seq) + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return Nl.messageTypeName(type) + "(flags=0x" + Integer.toHexString(flags) + ", seq=" + seq + ", "
                + payload.length + " payload bytes)";
    }
}
