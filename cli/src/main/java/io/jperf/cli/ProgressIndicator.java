package io.jperf.cli;

import io.jperf.engine.TestListener;

import java.io.PrintWriter;

/**
 * A one-line progress indicator on stderr for long runs ({@code -a}, {@code -D}), shown only
 * when stderr is a terminal; forwards everything else to the wrapped listener.
 */
final class ProgressIndicator implements TestListener {
    private final TestListener delegate;
    private final PrintWriter err;
    private final boolean enabled;

    ProgressIndicator(TestListener delegate, PrintWriter err, boolean enabled) {
        this.delegate = delegate;
        this.err = err;
        this.enabled = enabled;
    }

    @Override
    public void connected(io.jperf.result.TestHeader header, java.util.List<io.jperf.result.EndpointInfo> local,
                          java.util.List<io.jperf.result.EndpointInfo> remote) {
        delegate.connected(header, local, remote);
    }

    @Override
    public void path(io.jperf.engine.PathReport path) {
        delegate.path(path);
    }

    @Override
    public void bandwidth(io.jperf.result.BandwidthResult result) {
        clear();
        delegate.bandwidth(result);
    }

    @Override
    public void latency(io.jperf.result.LatencyResult result) {
        clear();
        delegate.latency(result);
    }

    @Override
    public void warning(String message) {
        clear();
        delegate.warning(message);
    }

    @Override
    public void progress(long done, long total) {
        if (enabled && done < total) {
            err.printf("\r[jperf] %d/%d sizes done", done, total);
            err.flush();
        }
    }

    private void clear() {
        if (enabled) {
            err.print("\r\033[K");
            err.flush();
        }
    }
}
