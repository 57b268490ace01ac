package io.jperf.verbs;

/** Queue pair states, as {@code enum ibv_qp_state}; jperf drives RESET -> INIT -> RTR -> RTS. */
public enum QpState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR
}
