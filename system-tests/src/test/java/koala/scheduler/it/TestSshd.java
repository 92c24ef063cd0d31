package koala.scheduler.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import koala.common.time.Poll;

/**
 * An OpenSSH server of the tests' own on a loopback port, standing for a remote cluster's head
 * node: Debian's {@code sshd} (installed when missing), with a host key and a user key generated
 * for the test, letting in only the testbed's {@code koala} account with that key. It can be
 * stopped — with the connections it serves, as when a head node goes away — and started again on
 * the same port with the same host key.
 */
public final class TestSshd implements AutoCloseable {
    public static final String USER = "koala";
    private static final Path SSHD = Path.of("/usr/sbin/sshd");

    private final Path dir;
    private final int port;
    private Process process;

    private TestSshd(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Generates the keys and the configuration and starts the server. */
    public static TestSshd start() throws IOException, InterruptedException {
        installIfMissing();
        Path dir = Files.createTempDirectory("koala-sshd-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        TestSshd sshd = new TestSshd(dir, TestScheduler.freePort());
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "koala-test-host", "-f", dir.resolve("host_key").toString());
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "koala-test-user", "-f", dir.resolve("user_key").toString());
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "koala-test-stranger", "-f",
                dir.resolve("stranger_key").toString());
        Files.copy(dir.resolve("user_key.pub"), dir.resolve("authorized_keys"));
        String hostKey = Files.readString(dir.resolve("host_key.pub")).trim();
        Files.writeString(dir.resolve("known_hosts"), "[127.0.0.1]:" + sshd.port + " " + hostKey + "\n");
        Files.writeString(dir.resolve("sshd_config"), String.join("\n",
                "ListenAddress 127.0.0.1",
                "HostKey " + dir.resolve("host_key"),
                "PidFile " + dir.resolve("sshd.pid"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "StrictModes no", // the key files live in a temporary directory of root's
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM yes", // Debian locks the koala account's password; PAM lets key logins in regardless
                "AllowUsers " + USER,
                "AllowTcpForwarding yes",
                "Subsystem sftp internal-sftp",
                "LogLevel VERBOSE", ""));
        Files.createDirectories(Path.of("/run/sshd")); // its privilege separation directory
        sshd.startServer();
        return sshd;
    }

    /** Debian's openssh-server, as the testbed installs gridengine: apt-get, only when missing. */
    private static void installIfMissing() throws IOException, InterruptedException {
        if (Files.isExecutable(SSHD)) {
            return;
        }
        ProcessBuilder apt = new ProcessBuilder("sh", "-c", "(apt-get update -q && apt-get install -y -q openssh-server)"
                + " > /tmp/koala-openssh-install.log 2>&1");
        apt.environment().put("DEBIAN_FRONTEND", "noninteractive");
        if (apt.start().waitFor() != 0 || !Files.isExecutable(SSHD)) {
            throw new IllegalStateException("cannot install openssh-server; see /tmp/koala-openssh-install.log");
        }
    }

    private void startServer() throws IOException {
        process = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", dir.resolve("sshd_config").toString(),
                "-p", Integer.toString(port)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("sshd.log").toFile())).start();
        if (!Poll.system().until(this::listening, Duration.ofSeconds(10))) {
            throw new IllegalStateException("sshd did not listen on " + port + "; see " + dir.resolve("sshd.log"));
        }
    }

    private boolean listening() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the server and every connection it serves, as a head node that went away. */
    public void stop() throws InterruptedException {
        List<ProcessHandle> sessions = process.descendants().filter(p -> p.info().command()
                .map(c -> c.endsWith("sshd")).orElse(false)).toList();
        process.destroy();
        sessions.forEach(ProcessHandle::destroy);
        process.waitFor(10, TimeUnit.SECONDS);
        Poll.system().until(() -> sessions.stream().noneMatch(ProcessHandle::isAlive), Duration.ofSeconds(10));
    }

    /** Starts the server again, on the same port with the same host key; nothing if it runs. */
    public void restart() throws IOException {
        if (process == null || !process.isAlive()) {
            startServer();
        }
    }

    public int port() {
        return port;
    }

    public Path dir() {
        return dir;
    }

    /** The grid configuration keys that make {@code site} a remote site reached through this server. */
    public Map<String, String> siteKeys(String site, String remoteDir) {
        String p = "site." + site + ".ssh.";
        return Map.of(p + "host", "127.0.0.1", p + "port", Integer.toString(port), p + "user", USER,
                p + "key", dir.resolve("user_key").toString(), p + "knownHosts", dir.resolve("known_hosts").toString(),
                p + "dir", remoteDir);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            stop();
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new UncheckedIOException(new IOException(String.join(" ", command) + " failed: " + out));
        }
    }
}
