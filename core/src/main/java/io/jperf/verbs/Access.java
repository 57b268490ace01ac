package io.jperf.verbs;

import java.util.Set;

/** Memory and QP access rights, as {@code enum ibv_access_flags}. */
public enum Access {
    LOCAL_WRITE(1), REMOTE_WRITE(1 << 1), REMOTE_READ(1 << 2), REMOTE_ATOMIC(1 << 3);

    private final int bit;

    Access(int bit) {
        this.bit = bit;
    }

    public static int mask(Set<Access> access) {
        int m = 0;
        for (Access a : access) {
            m |= a.bit;
        }
        return m;
    }
}
