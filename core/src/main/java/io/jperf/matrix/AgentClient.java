package io.jperf.matrix;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.ServeAuth;
import io.jperf.engine.TestFailedException;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.PerftestVersion;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The coordinator's side of the agent exchange: one connection per request, the version exchange,
 * the request, the shared-secret proof, the answer; every step within a deadline. The agent must
 * prove the secret too, or its answer is not believed. Stateless apart from its settings;
 * thread-safe.
 */
final class AgentClient {
    private final AuthSecret secret;
    private final Duration connectTimeout;

    AgentClient(AuthSecret secret, Duration connectTimeout) {
        this.secret = Objects.requireNonNull(secret, "secret");
        this.connectTimeout = connectTimeout;
    }

    /**
     * Sends {@code request} to the agent at {@code host:port} and returns its answer.
     *
     * @param answerTime how long the agent may take to answer, once connected
     * @throws TestFailedException when the agent refused, or did not prove the secret
     * @throws IOException         when it could not be reached or went silent
     */
    Map<String, String> call(String host, int port, Map<String, String> request, Duration answerTime)
            throws IOException {
        return call(host, port, request, answerTime, connectTimeout);
    }

    /** As {@link #call(String, int, Map, Duration)}, trying to connect for at most {@code connectFor}. */
    Map<String, String> call(String host, int port, Map<String, String> request, Duration answerTime,
                             Duration connectFor) throws IOException {
        try (ControlChannel channel = ControlChannel.connect(host, port, null, connectFor)) {
            Duration bound = answerTime.plus(MatrixAgent.REQUEST_TIME);
            channel.setReadTimeout(bound);
            channel.deadline(System.nanoTime() + bound.toNanos());
            PerftestVersion version = channel.exchangeVersion(PerftestVersion.ADVERTISED);
            if (!version.isJperf()) {
                throw new TestFailedException("the agent port of " + host + " (" + port + ") answers as perftest "
                        + version.text() + ", not as a jperf matrix agent");
            }
            Map<String, String> answer = JperfExtension.exchange(channel, request, "jperf matrix agent request");
            answer = ServeAuth.respond(channel, answer, Optional.of(secret));
            if (answer.containsKey(ServeAuth.REFUSAL)) {
                throw new TestFailedException("the agent on " + host + " refused: "
                        + AgentProtocol.unescape(answer.get(ServeAuth.REFUSAL)));
            }
            if (!answer.containsKey(ServeAuth.SERVER_PROOF)) {
                throw new TestFailedException("the agent on " + host + " did not prove the shared secret: its answer is"
                        + " not trusted");
            }
            return answer;
        }
    }
}
