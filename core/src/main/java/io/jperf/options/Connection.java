package io.jperf.options;

/** Transport service of the test QPs ({@code -c}). UC is accepted for bandwidth tests only. */
public enum Connection {
    /** Reliable connected (the default). */
    RC,
    /** Unreliable connected; not supported with {@code -R} (librdmacm has no UC). */
    UC
}
