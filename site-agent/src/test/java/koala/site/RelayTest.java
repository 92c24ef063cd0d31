package koala.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The relay against servers on this machine's loopback, standing for the SSH forward's port. */
class RelayTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private ServerSocket server;

    @AfterEach
    void stop() throws IOException {
        workers.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    /** A server on loopback that hands each connection to {@code handler} on a thread of its own. */
    private int serve(Consumer<Socket> handler) throws IOException {
        server = new ServerSocket(0, 50, LOOPBACK);
        workers.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    workers.execute(() -> handler.accept(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return server.getLocalPort();
    }

    private static void echo(Socket s) {
        try (s) {
            s.getInputStream().transferTo(s.getOutputStream());
        } catch (IOException e) {
            // the test closed it
        }
    }

    private Relay relay(int target, int maxConnections) throws IOException {
        return new Relay(LOOPBACK, 0, target, new Semaphore(maxConnections), workers, Duration.ofSeconds(2));
    }

    private static Socket connect(Relay relay) throws IOException {
        Socket s = new Socket(LOOPBACK, relay.port());
        s.setSoTimeout(2000); // a read the relay should have ended fails the test instead of hanging it
        return s;
    }

    /** Reads until the peer closes: -1, or a reset, both count as closed. */
    private static boolean closedByPeer(InputStream in) throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketException e) {
            return true;
        }
    }

    @Test
    void bytesGoBothWaysAMegabyteAtATime() throws Exception {
        try (Relay relay = relay(serve(RelayTest::echo), 4); Socket client = connect(relay)) {
            client.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(client.getInputStream().readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("hello");

            byte[] big = new byte[1 << 20];
            Arrays.fill(big, (byte) 7);
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    client.getOutputStream().write(big);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, workers);
            assertThat(client.getInputStream().readNBytes(big.length)).isEqualTo(big);
            assertThat(sent).succeedsWithin(Duration.ofSeconds(2));
        }
    }

    @Test
    void theServerClosingClosesTheCallerAfterWhatItSent() throws Exception {
        int target = serve(s -> {
            try (s) {
                s.getOutputStream().write("bye".getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                // nothing to do
            }
        });
        try (Relay relay = relay(target, 4); Socket client = connect(relay)) {
            assertThat(new String(client.getInputStream().readNBytes(3), StandardCharsets.US_ASCII)).isEqualTo("bye");
            assertThat(closedByPeer(client.getInputStream())).isTrue();
        }
    }

    @Test
    void theCallerClosingClosesTheServersSide() throws Exception {
        CompletableFuture<Integer> serverRead = new CompletableFuture<>();
        int target = serve(s -> {
            try (s) {
                s.getInputStream().readNBytes(2);
                serverRead.complete(s.getInputStream().read());
            } catch (IOException e) {
                serverRead.complete(-2);
            }
        });
        try (Relay relay = relay(target, 4)) {
            Socket client = connect(relay);
            client.getOutputStream().write("hi".getBytes(StandardCharsets.US_ASCII));
            client.close();

            assertThat(serverRead).succeedsWithin(Duration.ofSeconds(2)).isIn(-1, -2);
        }
    }

    @Test
    void aTargetThatRefusesClosesTheCaller() throws Exception {
        int nobody;
        try (ServerSocket gone = new ServerSocket(0, 1, LOOPBACK)) {
            nobody = gone.getLocalPort();
        }
        try (Relay relay = relay(nobody, 4); Socket client = connect(relay)) {
            assertThat(closedByPeer(client.getInputStream())).isTrue();
        }
    }

    @Test
    void connectionsBeyondTheBoundAreClosedAndThePermitComesBackWhenOneEnds() throws Exception {
        try (Relay relay = relay(serve(RelayTest::echo), 1)) {
            Socket first = connect(relay);
            first.getOutputStream().write(1);
            assertThat(first.getInputStream().read()).isEqualTo(1); // relayed: it holds the one permit

            try (Socket second = connect(relay)) {
                assertThat(closedByPeer(second.getInputStream())).isTrue();
            }
            first.getOutputStream().write(2);
            assertThat(first.getInputStream().read()).isEqualTo(2);

            first.close();
            Awaitility.await("a permit back").atMost(Duration.ofSeconds(2)).until(() -> {
                try (Socket third = connect(relay)) {
                    third.getOutputStream().write(3);
                    return third.getInputStream().read() == 3;
                } catch (IOException e) {
                    return false;
                }
            });
        }
    }

    @Test
    void aRetargetedRelaySendsNewConnectionsToTheNewTarget() throws Exception {
        int first = serve(s -> {
            try (s) {
                s.getOutputStream().write('A');
            } catch (IOException e) {
                // nothing to do
            }
        });
        ServerSocket other = new ServerSocket(0, 5, LOOPBACK);
        workers.execute(() -> {
            try (Socket s = other.accept()) {
                s.getOutputStream().write('B');
            } catch (IOException e) {
                // closed by the test
            }
        });
        try (other; Relay relay = relay(first, 4)) {
            try (Socket a = connect(relay)) {
                assertThat(a.getInputStream().read()).isEqualTo('A');
            }
            relay.pointAt(other.getLocalPort());
            try (Socket b = connect(relay)) {
                assertThat(b.getInputStream().read()).isEqualTo('B');
            }
        }
    }

    /**
     * Pointed again at the same port (a forward made again by another SSH session, granted the old one's
     * port), the relay closes the connection it held, whose far end was the old session's: its caller
     * sees the end and calls again, and that call is relayed.
     */
    @Test
    void pointedAgainItClosesTheConnectionsItHoldsEvenToTheSamePort() throws Exception {
        int target = serve(RelayTest::echo);
        try (Relay relay = relay(target, 4); Socket held = connect(relay)) {
            held.getOutputStream().write(1);
            assertThat(held.getInputStream().read()).isEqualTo(1);
            assertThat(relay.connections()).isEqualTo(1);

            relay.pointAt(target);

            assertThat(closedByPeer(held.getInputStream())).isTrue();
            Awaitility.await("the connection let go").atMost(Duration.ofSeconds(2)).until(() -> relay.connections() == 0);
            try (Socket again = connect(relay)) {
                again.getOutputStream().write(2);
                assertThat(again.getInputStream().read()).isEqualTo(2);
            }
            assertThat(relay.target()).isEqualTo(target);
        }
    }
}
