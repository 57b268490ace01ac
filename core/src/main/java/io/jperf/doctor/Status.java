package io.jperf.doctor;

import io.jperf.path.CheckResult;

/** A doctor check's verdict, from best to worst; {@link #SKIP} counts as neither good nor bad. */
public enum Status {
    /** The values read are as they should be (an INFO finding counts as passed). */
    PASS,
    /** The check did not apply here, and says why. */
    SKIP,
    /** It works, but probably worse than the fabric can do. */
    WARN,
    /** It will fail or measure another path than intended. */
    FAIL;

    /** The doctor verdict of a check's outcome. */
    public static Status of(CheckResult.Status status) {
        return switch (status) {
            case PASS, INFO -> PASS;
            case SKIP -> SKIP;
            case WARNING -> WARN;
            case ERROR -> FAIL;
        };
    }
}
