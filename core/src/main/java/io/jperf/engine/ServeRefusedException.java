package io.jperf.engine;

import io.jperf.path.PathRecord;

import java.util.Optional;

/**
 * {@code jperf serve} cannot run what a client asked (no device has the requested address, the
 * port is down, the request is out of range). The client receives the message and, when one
 * could be probed, this end's path record, from which it derives verdicts such as F6.
 */
final class ServeRefusedException extends TestFailedException {
    private static final long serialVersionUID = 1L;

    private final transient PathRecord pathRecord;

    ServeRefusedException(String message, Throwable cause, PathRecord pathRecordOrNull) {
        super(message, cause);
        this.pathRecord = pathRecordOrNull;
    }

    Optional<PathRecord> pathRecord() {
        return Optional.ofNullable(pathRecord);
    }
}
