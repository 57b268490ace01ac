package io.jperf.verbs;

/**
 * What moving a QP to Ready To Receive needs: the path MTU and the remote QP's number and
 * starting PSN, plus for RC the responder's resources and RNR timer.
 */
public record RtrAttributes(Mtu pathMtu, int remoteQpn, int remotePsn, int maxDestRdAtomic, int minRnrTimer,
                            AddressVector address) {
}
