package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.jcraft.jsch.HostKeyFailures;
import com.jcraft.jsch.JSchException;
import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;
import org.junit.jupiter.api.Test;

/** Each way of failing to reach a head node, as JSch reports it, and the message an admin gets. */
class SshErrorsTest {
    static final SiteConfig SITE = new SiteConfig("das4", new CellEnvironment(Path.of("/cm/sge"), "default", 6444,
            6445, Path.of("/cm/sge/bin")), "koala", 0, "", 8, DrmaaInstall.debian(), Optional.of(new SshConfig(
            "fs0.das4.example", 2222, "koala", Path.of("/etc/koala/id_ed25519"), Path.of("/etc/koala/known_hosts"),
            true, ".koala", "java", Duration.ofMinutes(10), Optional.empty())));

    private static String explain(Exception e) {
        return SshErrors.explain(SITE, e);
    }

    @Test
    void anUnknownHostNamesTheHostKey() {
        // JSch wraps the cause and uses its toString() as the message
        UnknownHostException cause = new UnknownHostException("fs0.das4.example: Name or service not known");
        assertThat(explain(new JSchException(cause.toString(), cause)))
                .isEqualTo("site das4: site.das4.ssh.host = fs0.das4.example: unknown host");
    }

    @Test
    void aRefusedConnectionNamesHostAndPort() {
        ConnectException cause = new ConnectException("Connection refused");
        assertThat(explain(new JSchException(cause.toString(), cause))).isEqualTo("site das4: cannot connect to "
                + "fs0.das4.example:2222 (site.das4.ssh.host, site.das4.ssh.port): connection refused");
        assertThat(explain(new JSchException("timeout: socket is not established", new SocketTimeoutException())))
                .isEqualTo("site das4: fs0.das4.example:2222 (site.das4.ssh.host, site.das4.ssh.port) did not answer in time");
    }

    @Test
    void aRefusedKeyNamesTheKeyTheUserAndWhereThePublicKeyGoes() {
        assertThat(explain(new JSchException("Auth fail for methods 'publickey'"))).isEqualTo("site das4: "
                + "koala@fs0.das4.example:2222 refused the key site.das4.ssh.key = /etc/koala/id_ed25519 for "
                + "site.das4.ssh.user = koala (is its public key in ~koala/.ssh/authorized_keys on the head node?)");
    }

    @Test
    void anUnreadableKeyFileNamesTheKey() {
        FileNotFoundException cause = new FileNotFoundException("/etc/koala/id_ed25519 (No such file or directory)");
        assertThat(explain(new JSchException(cause.toString(), cause))).startsWith(
                "site das4: site.das4.ssh.key = /etc/koala/id_ed25519: not a usable private key (java.io.FileNotFoundException");
        assertThat(explain(new JSchException("invalid privatekey: /etc/koala/id_ed25519")))
                .endsWith("it must be readable by the scheduler, in OpenSSH or PEM format, without a passphrase");
    }

    @Test
    void anUnknownHostKeyTellsWhichFileAndHowToAddItAfterChecking() {
        JSchException e = HostKeyFailures.unknown("UnknownHostKey: [fs0.das4.example]:2222. ED25519 key fingerprint is "
                + "SHA256:4RsHCnk/KkbAbuTsYWbUGiPr224WG3wtkQfZeaZsuiw");
        assertThat(explain(e)).isEqualTo("site das4: the host key of fs0.das4.example:2222 is not in "
                + "site.das4.ssh.knownHosts = /etc/koala/known_hosts (it offers ED25519 "
                + "SHA256:4RsHCnk/KkbAbuTsYWbUGiPr224WG3wtkQfZeaZsuiw); check it with the cluster's admins, then add it: "
                + "ssh-keyscan -p 2222 fs0.das4.example >> /etc/koala/known_hosts");
    }

    @Test
    void strictCheckingRejectsWithoutAFingerprintSoTheOfferedKeyIsAddedFromTheSession() {
        JSchException e = HostKeyFailures.unknown("reject HostKey: [fs0.das4.example]:2222");
        assertThat(explain(e)).isEqualTo("site das4: the host key of fs0.das4.example:2222 is not in "
                + "site.das4.ssh.knownHosts = /etc/koala/known_hosts; check it with the cluster's admins, then add it: "
                + "ssh-keyscan -p 2222 fs0.das4.example >> /etc/koala/known_hosts");
        assertThat(SshErrors.explain(SITE, e, Optional.of("ssh-ed25519 SHA256:abc")))
                .contains("/etc/koala/known_hosts (it offers ssh-ed25519 SHA256:abc); check");
    }

    @Test
    void aChangedHostKeyIsAMismatchWarning() {
        assertThat(explain(HostKeyFailures.changed("HostKey has been changed: [fs0.das4.example]:2222")))
                .isEqualTo("site das4: HOST KEY MISMATCH: fs0.das4.example:2222 offers a different key than the one in "
                        + "site.das4.ssh.knownHosts = /etc/koala/known_hosts; someone may be intercepting the connection, "
                        + "or the head node was reinstalled (then replace its line in that file)");
    }

    @Test
    void anythingElseSaysWhereItFailed() {
        assertThat(explain(new JSchException("Algorithm negotiation fail")))
                .isEqualTo("site das4: SSH to koala@fs0.das4.example:2222 failed: Algorithm negotiation fail");
    }
}
