package io.jperf.verbs;

/** A port's logical state, as {@code enum ibv_port_state}. */
public enum PortState {
    NOP, DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER, UNKNOWN;

    static PortState fromNative(int value) {
        PortState[] all = values();
        return value >= 0 && value < ACTIVE_DEFER.ordinal() + 1 ? all[value] : UNKNOWN;
    }
}
