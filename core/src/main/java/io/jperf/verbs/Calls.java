package io.jperf.verbs;

/** Checks the return codes of verbs calls that report failure as a (positive or negated) errno. */
final class Calls {
    private Calls() {
    }

    static void check(String call, int rc) {
        if (rc != 0) {
            throw RdmaException.of(call, Math.abs(rc));
        }
    }
}
