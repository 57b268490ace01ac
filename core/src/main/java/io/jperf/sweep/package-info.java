/**
 * {@code jperf sweep}: one test kind (write-bw or write-lat) run over a set of Linux-side choices
 * against one {@code jperf serve} peer, and the reports that compare them.
 *
 * <p>A {@link io.jperf.sweep.SweepPlan} holds the base options and the values of each
 * {@link io.jperf.sweep.SweepDimension} (rails, source addresses, GID indexes, RDMA CM off/on,
 * traffic classes, message sizes); its points ({@link io.jperf.sweep.SweepChoice}) are their
 * cartesian product. {@link io.jperf.sweep.Sweep} runs the points one after another, each through
 * the write-test engine, and turns every failure into a row with its decoded error and the path
 * findings that may explain it ({@link io.jperf.sweep.LocalPathCheck} adds this host's side for a
 * point that failed); a {@link io.jperf.sweep.SweepListener} hears the progress. The
 * {@link io.jperf.sweep.SweepResult} is rendered by {@link io.jperf.sweep.SweepTextReport} (the
 * side-by-side table), {@link io.jperf.sweep.SweepJson} and {@link io.jperf.sweep.SweepHtmlReport}.
 *
 * <p>Plans, results and reports are immutable values; a sweep does I/O and takes as long as its
 * points, so run it off any UI thread.
 */
package io.jperf.sweep;
