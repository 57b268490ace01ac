package io.jperf.cli;

import io.jperf.engine.StopSignal;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.ArrayList;
import java.util.List;

/**
 * For {@code --run_infinitely}: while open, SIGINT (Ctrl-C) and SIGTERM request the run's {@link StopSignal}
 * instead of ending the JVM, so the run stops cleanly and reports itself; {@link #close()} puts the JVM's
 * handlers back (a second Ctrl-C after that ends jperf as usual). The handler runs on the JVM's signal
 * thread and only sets the signal. Open and close on one thread; close is idempotent.
 */
final class StopOnSignals implements AutoCloseable {
    private static final List<String> SIGNALS = List.of("INT", "TERM");

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    /** Installs the handlers; a signal this platform does not have is skipped. */
    StopOnSignals(StopSignal stop) {
        for (String name : SIGNALS) {
            try {
                Signal signal = new Signal(name);
                previous.add(Signal.handle(signal, s -> stop.request("SIG" + s.getName())));
                signals.add(signal);
            } catch (IllegalArgumentException e) {
                // no such signal here, or the JVM keeps it (-Xrs): Ctrl-C then ends jperf without a summary
            }
        }
    }

    /** How many of SIGINT and SIGTERM this instance handles (0 when the JVM keeps them, e.g. under -Xrs). */
    int handled() {
        return signals.size();
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
        signals.clear();
        previous.clear();
    }
}
