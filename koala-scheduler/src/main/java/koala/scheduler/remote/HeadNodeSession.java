package koala.scheduler.remote;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SftpException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import koala.common.time.Durations;
import koala.common.time.Poll;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;
import koala.process.Completion;

/**
 * One SSH connection to a remote site's head node (JSch): commands, file copies over SFTP and port
 * forwards. The server is asked every five seconds whether it is alive, so a connection that dies
 * without a word (a cable, a firewall) is noticed within fifteen.
 */
final class HeadNodeSession implements HeadNodeShell, AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

    private final SiteConfig site;
    private final Session session;
    private final Poll poll;

    private HeadNodeSession(SiteConfig site, Session session, Poll poll) {
        this.site = site;
        this.session = session;
        this.poll = poll;
    }

    /** Connects and logs in; a failure is an {@link SshFailure} whose message says what to fix. */
    static HeadNodeSession open(SiteConfig site, Poll poll) {
        SshConfig ssh = site.ssh().orElseThrow();
        JSch jsch = new JSch();
        jsch.setInstanceLogger(new JSchLog(site.name()));
        Session session = null;
        try {
            jsch.addIdentity(ssh.key().toString());
            if (ssh.checkHostKey()) {
                jsch.setKnownHosts(ssh.knownHosts().toString());
            }
            session = jsch.getSession(ssh.user(), ssh.host(), ssh.port());
            session.setConfig("StrictHostKeyChecking", ssh.checkHostKey() ? "yes" : "no");
            session.setConfig("PreferredAuthentications", "publickey");
            session.setServerAliveInterval(5000);
            session.setServerAliveCountMax(3);
            session.connect((int) CONNECT_TIMEOUT.toMillis());
            return new HeadNodeSession(site, session, poll);
        } catch (JSchException e) {
            Optional<String> offered = Optional.ofNullable(session).map(Session::getHostKey)
                    .map(k -> k.getType() + " " + k.getFingerPrint(jsch));
            throw new SshFailure(SshErrors.explain(site, e, offered), e);
        }
    }

    boolean connected() {
        return session.isConnected();
    }

    /**
     * Runs {@code command} with {@code input} on its standard input (the channel's: how a secret
     * reaches the head node without showing on a command line), then end of file. At most
     * {@code timeout}: a command still running then is sent a KILL and its channel closed.
     */
    @Override
    public Result run(String command, Duration timeout, byte[] input) {
        ChannelExec exec = null;
        try {
            exec = (ChannelExec) session.openChannel("exec");
            exec.setCommand(command);
            exec.setInputStream(input == null ? null : new ByteArrayInputStream(input));
            InputStream out = exec.getInputStream();
            InputStream err = exec.getErrStream();
            exec.connect((int) CONNECT_TIMEOUT.toMillis());
            ChannelExec channel = exec;
            Completion.Output output = Completion.await(out, err, t -> poll.until(channel::isClosed, t), timeout,
                    "ssh-" + site.name()).orElseThrow(() -> timedOut(channel, command, timeout));
            return new Result(exec.getExitStatus(), output.outText(), output.errText());
        } catch (JSchException | IOException e) {
            throw new SshFailure("site " + site.name() + ": lost the head node while running a command: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SshFailure("site " + site.name() + ": interrupted while running " + Sh.brief(command)
                    + " on the head node", e);
        } finally {
            if (exec != null) {
                exec.disconnect();
            }
        }
    }

    /**
     * Asks the server to kill the command: closing the channel alone leaves it running there. An sshd
     * without support for the "signal" request ignores it; the channel is closed all the same.
     */
    private SshFailure timedOut(ChannelExec channel, String command, Duration timeout) {
        try {
            channel.sendSignal("KILL");
        } catch (Exception e) {
            // an older sshd refuses signals; the channel is closed below either way
        }
        return new SshFailure("site " + site.name() + ": " + Sh.brief(command) + " on the head node did not end within "
                + Durations.text(timeout) + "; stopped it", null);
    }

    @Override
    public void upload(InputStream content, String path) {
        ChannelSftp sftp = null;
        try (content) {
            sftp = (ChannelSftp) session.openChannel("sftp");
            sftp.connect((int) CONNECT_TIMEOUT.toMillis());
            String part = path + ".part";
            sftp.put(content, part, ChannelSftp.OVERWRITE);
            sftp.rename(part, path);
        } catch (JSchException | SftpException | IOException e) {
            throw new SshFailure("site " + site.name() + ": cannot copy " + path + " to the head node: " + e.getMessage(), e);
        } finally {
            if (sftp != null) {
                sftp.disconnect();
            }
        }
    }

    /** A port on this machine's loopback that reaches {@code remotePort} on the head node's loopback. */
    int forwardLocal(int remotePort) {
        try {
            return session.setPortForwardingL("127.0.0.1", 0, "127.0.0.1", remotePort);
        } catch (JSchException e) {
            throw new SshFailure("site " + site.name() + ": cannot forward to the agent's port " + remotePort + ": "
                    + e.getMessage(), e);
        }
    }

    void unforwardLocal(int localPort) {
        try {
            session.delPortForwardingL("127.0.0.1", localPort);
        } catch (JSchException e) {
            // already gone with its session
        }
    }

    /**
     * A port on the head node's loopback that reaches {@code host:port} as this machine sees it
     * (this machine's loopback, or the address KOALA advertises): how pilots call back, through the
     * agent's relay there. {@code wanted} is the port to ask for, 0 for any; the one granted is
     * returned. {@code host} is a name or an IPv4 address (JSch's forwarding syntax splits on ':').
     */
    int forwardRemote(int wanted, String host, int port) throws JSchException {
        boolean interrupted = Thread.currentThread().isInterrupted();
        try {
            return forwardRemoteOnce(wanted, host, port);
        } finally {
            // JSch may leave the calling thread's interrupt flag set (here: the scheduler's loop, whose
            // next call, to the agent for the relay, then failed at once); keep only a flag set before
            if (!interrupted) {
                Thread.interrupted();
            }
        }
    }

    private int forwardRemoteOnce(int wanted, String host, int port) throws JSchException {
        if (wanted != 0) {
            return session.setPortForwardingR("127.0.0.1:" + wanted + ":" + host + ":" + port);
        }
        // JSch keys remote forwards by the port asked for, so a second "any port" (0) is refused as
        // "already registered": ask for free-looking ports of our own choosing instead
        JSchException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            int candidate = 20000 + RANDOM.nextInt(40000);
            try {
                return session.setPortForwardingR("127.0.0.1:" + candidate + ":" + host + ":" + port);
            } catch (JSchException taken) {
                last = taken;
            }
        }
        throw last;
    }

    private static final java.util.Random RANDOM = new java.security.SecureRandom();

    /** Ends the remote forward on the head node's loopback port {@code port}. */
    void unforwardRemote(int port) {
        boolean interrupted = Thread.currentThread().isInterrupted();
        try {
            session.delPortForwardingR("127.0.0.1", port);
        } catch (JSchException e) {
            // gone with its session already
        } finally {
            if (!interrupted) {
                Thread.interrupted(); // as in forwardRemote: JSch may leave the flag set
            }
        }
    }

    @Override
    public void close() {
        session.disconnect();
    }

}
