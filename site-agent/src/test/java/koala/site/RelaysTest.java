package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import koala.api.site.AgentSecret;
import koala.api.site.AgentState;
import koala.api.site.RelayAddress;
import koala.common.failure.InvalidField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules of {@link Relays#open}, and relays that outlive their agent in its state file. */
class RelaysTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @TempDir
    Path dir;

    private Relays relays(AgentStateFile state) {
        return new Relays("fs2-head", LOOPBACK, Optional.of(state), 8, Executors.newCachedThreadPool(), Duration.ofSeconds(1));
    }

    @Test
    void askingAgainGivesTheSameRelayAndAPortAskedForIsRepointed() {
        try (Relays relays = relays(new AgentStateFile(dir.resolve("agent-fs2.state")))) {
            RelayAddress first = relays.open(45001, 0);
            assertThat(first.host()).isEqualTo("fs2-head");
            assertThat(first.target()).isEqualTo(45001);

            assertThat(relays.open(45001, 0)).as("the same target again").isEqualTo(first);
            // the SSH forward was granted another port after a reconnection: the relay launchers know follows it
            assertThat(relays.open(45009, first.port())).isEqualTo(new RelayAddress("fs2-head", first.port(), 45009));
            assertThat(relays.all()).containsExactly(new RelayAddress("fs2-head", first.port(), 45009));
        }
    }

    @Test
    void aRestartedAgentListensWhereTheLastOneDidAndKeepsItsSecretLineApart() {
        AgentStateFile state = new AgentStateFile(dir.resolve("agent-fs2.state"));
        AgentSecret secret = AgentSecret.random();
        state.update(s -> s.serving(new AgentState.Serving(41234, 777, secret)));
        RelayAddress scheduler;
        RelayAddress runner;
        try (Relays before = relays(state)) {
            // ports outside the kernel's ephemeral range: on a busy machine an outgoing connection may
            // take an ephemeral one between the two agents' lives, and the restore would rightly move
            scheduler = before.open(45001, freeFixedPort());
            runner = before.open(45002, freeFixedPort());
        }
        assertThat(state.read().relays()).containsExactly(new AgentState.Relay(45001, scheduler.port()),
                new AgentState.Relay(45002, runner.port()));
        assertThat(state.read().serving()).contains(new AgentState.Serving(41234, 777, secret));

        try (Relays after = relays(state)) {
            after.restore();
            assertThat(after.all()).containsExactly(scheduler, runner);
        }
    }

    /**
     * A runner's instance ended: its relay is closed — a caller is refused at once rather than accepted
     * and cut off — and left out of the state file, so that a restarted agent does not open it again.
     */
    @Test
    void aClosedRelayNoLongerListensAndIsNotOpenedAgain() throws Exception {
        AgentStateFile state = new AgentStateFile(dir.resolve("agent-fs2.state"));
        RelayAddress scheduler;
        RelayAddress runner;
        try (Relays relays = relays(state)) {
            scheduler = relays.open(45001, 0);
            runner = relays.open(45002, 0);

            assertThat(relays.close(runner.port())).contains(runner);
            assertThat(relays.close(runner.port())).as("closed already").isEmpty();
            assertThat(relays.all()).containsExactly(scheduler);
            assertThatThrownBy(() -> new java.net.Socket(LOOPBACK, runner.port()).close())
                    .isInstanceOf(java.net.ConnectException.class);
        }
        assertThat(state.read().relays()).containsExactly(new AgentState.Relay(45001, scheduler.port()));
    }

    /** A free port below the ephemeral range (32768 and up on Linux). */
    private static int freeFixedPort() {
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = 20000 + random.nextInt(12000);
            try (ServerSocket probe = new ServerSocket(port, 1, LOOPBACK)) {
                return probe.getLocalPort();
            } catch (java.io.IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free port in 20000..31999");
    }

    @Test
    void aPortTakenByAnotherProgramGivesAnyOther() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK); Relays relays = relays(new AgentStateFile(dir.resolve("s")))) {
            RelayAddress relay = relays.open(45001, taken.getLocalPort());

            assertThat(relay.port()).isNotEqualTo(taken.getLocalPort()).isPositive();
            assertThat(relay.target()).isEqualTo(45001);
        }
    }

    @Test
    void aTargetOrPortThatIsNotOneIsABadRequest() {
        try (Relays relays = relays(new AgentStateFile(dir.resolve("s")))) {
            assertThatThrownBy(() -> relays.open(0, 0)).isInstanceOfSatisfying(InvalidField.class, e -> {
                assertThat(e.field()).isEqualTo("target");
                assertThat(e.getMessage()).isEqualTo("target: 0 is not a port (1..65535)");
            });
            assertThatThrownBy(() -> relays.open(45001, 70000)).isInstanceOfSatisfying(InvalidField.class,
                    e -> assertThat(e.getMessage()).isEqualTo("port: 70000 is not a port (0..65535, 0 for any)"));
            assertThat(relays.all()).isEqualTo(List.of());
        }
    }

    /**
     * The scheduler, connected again, asks for the relay on its port to the forward it made again, which
     * was granted the old one's port: the relay keeps its port and target, and the connection it held
     * (to the old session's forward, here a server that holds it and never answers) is closed.
     */
    @Test
    void askingAgainForAPortItServesClosesTheConnectionsItHeld() throws Exception {
        try (ServerSocket forward = new ServerSocket(0, 5, LOOPBACK);
             Relays relays = relays(new AgentStateFile(dir.resolve("s")))) {
            RelayAddress relay = relays.open(forward.getLocalPort(), 0);
            try (java.net.Socket launcher = new java.net.Socket(LOOPBACK, relay.port());
                 java.net.Socket farEnd = forward.accept()) {
                launcher.setSoTimeout(2000);

                assertThat(relays.open(forward.getLocalPort(), relay.port())).isEqualTo(relay);

                assertThat(launcher.getInputStream().read()).as("the launcher's connection, ended").isEqualTo(-1);
                farEnd.setSoTimeout(2000);
                assertThat(farEnd.getInputStream().read()).as("and the old forward's end of it").isEqualTo(-1);
            }
        }
    }
}
