package koala.scheduler.remote;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SftpException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import koala.common.grid.SiteConfig;
import koala.common.grid.SshConfig;
import koala.common.time.Poll;

/**
 * One SSH connection to a remote site's head node (JSch): commands, file copies over SFTP and port
 * forwards. The server is asked every five seconds whether it is alive, so a connection that dies
 * without a word (a cable, a firewall) is noticed within fifteen.
 */
final class HeadNodeSession implements AutoCloseable {
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

    /** What a command printed and how it ended. */
    record Result(int exit, String out, String err) {
        boolean ok() {
            return exit == 0;
        }
    }

    /** Runs {@code command} with the account's shell; waits at most {@code timeout} for it to end. */
    Result run(String command, Duration timeout) {
        ChannelExec exec = null;
        try {
            exec = (ChannelExec) session.openChannel("exec");
            exec.setCommand(command);
            exec.setInputStream(null);
            InputStream out = exec.getInputStream();
            InputStream err = exec.getErrStream();
            exec.connect((int) CONNECT_TIMEOUT.toMillis());
            CompletableFuture<String> errText = CompletableFuture.supplyAsync(() -> read(err));
            String outText = read(out);
            ChannelExec channel = exec;
            if (!poll.until(channel::isClosed, timeout)) {
                throw new SshFailure("site " + site.name() + ": a command on the head node did not end within "
                        + timeout.toSeconds() + " s", null);
            }
            return new Result(exec.getExitStatus(), outText, errText.join());
        } catch (JSchException | IOException e) {
            throw new SshFailure("site " + site.name() + ": lost the head node while running a command: " + e.getMessage(), e);
        } finally {
            if (exec != null) {
                exec.disconnect();
            }
        }
    }

    /** Copies {@code content} to {@code path} on the head node, whole or not at all. */
    void upload(InputStream content, String path) {
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
     * A port on the head node's loopback that reaches {@code localPort} on this machine: how pilots
     * call back. {@code wanted} is the port to ask for, 0 for any; the one granted is returned.
     */
    int forwardRemote(int wanted, int localPort) throws JSchException {
        return session.setPortForwardingR("127.0.0.1:" + wanted + ":127.0.0.1:" + localPort);
    }

    @Override
    public void close() {
        session.disconnect();
    }

    private static String read(InputStream in) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
