package io.jperf.wire;

/**
 * The side of the control connection. In every exchange the client writes first and then reads; the
 * server reads first and then writes.
 */
public enum Role {
    /** Connects to the server; perftest run with a host argument. */
    CLIENT,
    /** Accepts one client; perftest run without a host argument. */
    SERVER
}
