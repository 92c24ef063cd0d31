package koala.site;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One TCP relay on a head node: accepts connections on the cluster-facing address and forwards
 * each, bytes both ways, to a port on the head node's loopback, where an SSH remote forward leads
 * to the KOALA host. Plain TCP: the scheduler's and runners' APIs at the far end check their own
 * tokens. Each connection is two copying tasks; when either side closes (or fails) both sockets are
 * closed. A connection the target refuses, or does not accept within the connect time-out, closes
 * the caller's. Connections beyond the shared bound are closed at once rather than queued.
 *
 * <p>Pointed again ({@link #pointAt}), it closes the connections it holds: they lead to an SSH forward of
 * a session that is gone (a scheduler killed, or one that another took over from), even when the new
 * forward has the old one's port, and their callers would otherwise wait on them for ever instead of
 * calling again. Each connection carries the generation of the target it was made to, so that one made
 * while the relay is pointed again is closed too.
 */
final class Relay implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(Relay.class);

    private final ServerSocket listener;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private final Semaphore connections;
    private final ExecutorService workers;
    private final Duration connectTimeout;
    private volatile Target target;
    /** The connections relayed now, each with the generation of the target it leads to. */
    private final java.util.Map<Connection, Integer> open = new java.util.concurrent.ConcurrentHashMap<>();

    /** Where connections go: a loopback port, and how many times the relay was pointed before. */
    private record Target(int port, int generation) {
    }

    /** Both sockets of one relayed connection. */
    private record Connection(Socket caller, Socket far) {
        void close() {
            closeQuietly(caller);
            closeQuietly(far);
        }
    }

    /**
     * Listens on {@code bind}:{@code port} (0 for any free port).
     *
     * @param connections shared by all the agent's relays: the most connections relayed at once
     * @param workers     runs the accept loop and two tasks per connection; must not queue them
     */
    Relay(InetAddress bind, int port, int target, Semaphore connections, ExecutorService workers, Duration connectTimeout)
            throws IOException {
        this.listener = new ServerSocket();
        listener.setReuseAddress(true); // a restarted agent gets its old port back at once, past TIME_WAIT
        listener.bind(new InetSocketAddress(bind, port), 64);
        this.target = new Target(target, 0);
        this.connections = connections;
        this.workers = workers;
        this.connectTimeout = connectTimeout;
        workers.execute(this::acceptLoop);
    }

    int port() {
        return listener.getLocalPort();
    }

    int target() {
        return target.port();
    }

    /**
     * Later connections go to {@code newTarget}, and those open now are closed, whatever their target:
     * asked again, the relay leads to a forward made again, even when it has the old one's port.
     */
    void pointAt(int newTarget) {
        Target now = new Target(newTarget, target.generation() + 1);
        target = now;
        open.forEach((c, generation) -> {
            if (generation < now.generation()) {
                c.close();
            }
        });
    }

    /** How many connections the relay holds now. */
    int connections() {
        return open.size();
    }

    private void acceptLoop() {
        try {
            accept();
        } finally {
            stopped.countDown();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket caller;
            try {
                caller = listener.accept();
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    LOG.warn("relay on port {}: accept failed: {}", port(), e.getMessage());
                }
                continue;
            }
            if (!connections.tryAcquire()) {
                LOG.warn("relay on port {}: as many connections as allowed are relayed; closing a new one from {}",
                        port(), caller.getRemoteSocketAddress());
                closeQuietly(caller);
                continue;
            }
            Target to = target;
            workers.execute(() -> relay(caller, to));
        }
    }

    /** Connects to the target, then copies both ways; the permit goes back when both copies end. */
    private void relay(Socket caller, Target to) {
        Socket far = new Socket();
        Connection connection = new Connection(caller, far);
        open.put(connection, to.generation());
        if (target.generation() != to.generation()) {
            connection.close(); // pointed again since it was accepted, and maybe after the sweep: the connect below fails
        }
        try {
            far.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), to.port()), (int) connectTimeout.toMillis());
            caller.setTcpNoDelay(true);
            far.setTcpNoDelay(true);
        } catch (IOException e) {
            LOG.debug("relay on port {}: target port {} refused a connection: {}", port(), to.port(), e.getMessage());
            connection.close();
            open.remove(connection);
            connections.release();
            return;
        }
        AtomicInteger copies = new AtomicInteger(2);
        Runnable ended = () -> {
            connection.close();
            if (copies.decrementAndGet() == 0) {
                open.remove(connection);
                connections.release();
            }
        };
        workers.execute(() -> copy(far, caller, ended));
        copy(caller, far, ended);
    }

    private static void copy(Socket from, Socket to, Runnable ended) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
        } catch (SocketException e) {
            // the other copy closed the sockets, or a side reset the connection: the relay ends either way
        } catch (IOException e) {
            LOG.debug("relay copy ended: {}", e.getMessage());
        } finally {
            ended.run();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing: nothing left to do with it
        }
    }

    /** Stops accepting; connections in progress end when either side closes. */
    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // closed either way
        }
        // the kernel frees the port only when the thread blocked in accept() has been woken and left
        // it: until then a new listener on the same port (a restarted agent's) is refused
        try {
            stopped.await(2, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
