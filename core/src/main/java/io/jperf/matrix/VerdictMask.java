package io.jperf.matrix;

import io.jperf.path.Severity;
import io.jperf.path.Verdict;

import java.util.List;

/**
 * A point's path findings in two bytes: bit {@code n-1} when a finding {@code Fn} is a WARNING or
 * an ERROR, bit {@code 8+n-1} when it is an ERROR. INFO findings are left out. Stateless.
 */
public final class VerdictMask {
    private VerdictMask() {
    }

    public static short of(List<Verdict> verdicts) {
        int mask = 0;
        for (Verdict v : verdicts) {
            int n = number(v.id());
            if (n < 1 || n > 8 || v.severity() == Severity.INFO) {
                continue;
            }
            mask |= 1 << (n - 1);
            if (v.severity() == Severity.ERROR) {
                mask |= 1 << (8 + n - 1);
            }
        }
        return (short) mask;
    }

    /** {@code F2! F4}: "!" marks an ERROR; empty when there are none. */
    public static String describe(int mask) {
        StringBuilder sb = new StringBuilder();
        for (int n = 1; n <= 8; n++) {
            if ((mask & (1 << (n - 1))) != 0) {
                sb.append(sb.isEmpty() ? "" : " ").append('F').append(n);
                if ((mask & (1 << (8 + n - 1))) != 0) {
                    sb.append('!');
                }
            }
        }
        return sb.toString();
    }

    private static int number(String id) {
        if (id.length() < 2 || id.charAt(0) != 'F') {
            return -1;
        }
        try {
            return Integer.parseInt(id.substring(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
