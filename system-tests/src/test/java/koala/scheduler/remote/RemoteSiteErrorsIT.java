package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import koala.common.time.Poll;
import koala.grid.CellEnvironment;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;
import koala.scheduler.it.TestSshd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad configurations of a remote site against a real OpenSSH server, and the message each gets:
 * a key the head node refuses, a host key that is unknown or does not match, a host that does not
 * exist, no Java and no SGE cell on the head node.
 */
class RemoteSiteErrorsIT {
    private static TestSshd sshd;
    private static SiteConfig fs2;

    @BeforeAll
    static void start() throws Exception {
        sshd = TestSshd.start();
        fs2 = GridConfig.load(KoalaHome.gridConfig()).site("fs2");
    }

    @AfterAll
    static void stop() throws Exception {
        sshd.close();
    }

    private static SiteConfig remote(String host, String key, Path knownHosts, String java, CellEnvironment cell) {
        return new SiteConfig("fs2", cell, TestSshd.USER, 0, "", 8, fs2.drmaa(), Optional.of(new SshConfig(host,
                sshd.port(), TestSshd.USER, sshd.dir().resolve(key), knownHosts, true, ".koala-it", java,
                Duration.ofMinutes(10), Optional.empty())));
    }

    private static SiteConfig remote(String key, Path knownHosts) {
        return remote("127.0.0.1", key, knownHosts, "java", fs2.cell());
    }

    private static HeadNodeSession open(SiteConfig site) {
        return HeadNodeSession.open(site, Poll.system());
    }

    @Test
    void theRightKeyAndHostKeyLogIn() {
        try (HeadNodeSession session = open(remote("user_key", sshd.dir().resolve("known_hosts")))) {
            assertThat(session.run("id -un", Duration.ofSeconds(10)).out().trim()).isEqualTo(TestSshd.USER);
        }
    }

    @Test
    void aRefusedKeyIsNamedAndTheSiteShowsDownWithIt() {
        SiteConfig site = remote("stranger_key", sshd.dir().resolve("known_hosts"));
        assertThatThrownBy(() -> open(site)).isInstanceOf(SshFailure.class).hasMessage("site fs2: koala@127.0.0.1:"
                + sshd.port() + " refused the key site.fs2.ssh.key = " + sshd.dir().resolve("stranger_key")
                + " for site.fs2.ssh.user = koala (is its public key in ~koala/.ssh/authorized_keys on the head node?)");

        try (RemoteSite remote = new RemoteSite(site, "127.0.0.1", 1, List.of(), InstantSource.system(),
                Executors.newSingleThreadScheduledExecutor(), client -> { })) {
            remote.start();
            assertThat(remote.down()).hasValueSatisfying(why -> assertThat(why)
                    .startsWith("site fs2: koala@127.0.0.1:" + sshd.port() + " refused the key").contains("next try at"));
        }
    }

    @Test
    void aHostKeyThatDoesNotMatchIsAMismatchAndAnUnknownOneSaysHowToAddIt() throws Exception {
        Path wrong = sshd.dir().resolve("known_hosts_wrong");
        Files.writeString(wrong, "[127.0.0.1]:" + sshd.port() + " " + Files.readString(sshd.dir().resolve("stranger_key.pub")));
        assertThatThrownBy(() -> open(remote("user_key", wrong))).isInstanceOf(SshFailure.class)
                .hasMessageStartingWith("site fs2: HOST KEY MISMATCH: 127.0.0.1:" + sshd.port()
                        + " offers a different key than the one in site.fs2.ssh.knownHosts = " + wrong);

        Path empty = Files.writeString(sshd.dir().resolve("known_hosts_empty"), "");
        assertThatThrownBy(() -> open(remote("user_key", empty))).isInstanceOf(SshFailure.class)
                .hasMessageStartingWith("site fs2: the host key of 127.0.0.1:" + sshd.port()
                        + " is not in site.fs2.ssh.knownHosts = " + empty + " (it offers ")
                .hasMessageEndingWith("ssh-keyscan -p " + sshd.port() + " 127.0.0.1 >> " + empty);
    }

    @Test
    void anUnknownHostIsNamed() {
        SiteConfig site = remote("no-such-head-node.invalid", "user_key", sshd.dir().resolve("known_hosts"), "java",
                fs2.cell());
        assertThatThrownBy(() -> open(site)).isInstanceOf(SshFailure.class)
                .hasMessage("site fs2: site.fs2.ssh.host = no-such-head-node.invalid: unknown host");
    }

    @Test
    void noJavaAndNoSgeOnTheHeadNodeAreNamedWithTheirKeys() {
        CellEnvironment noCell = new CellEnvironment(fs2.cell().sgeRoot(), "no-such-cell", 6444, 6445,
                Path.of("/opt/no-sge/bin"));
        SiteConfig site = remote("127.0.0.1", "user_key", sshd.dir().resolve("known_hosts"), "/opt/no-java/bin/java",
                noCell);
        try (HeadNodeSession session = open(site)) {
            assertThatThrownBy(() -> RemoteAgent.probe(site, session)).hasMessage("site fs2: head node 127.0.0.1: "
                    + "no Java on the head node: site.fs2.ssh.java = /opt/no-java/bin/java is not found (install Java 17 "
                    + "there, or name its path); no SGE cell on the head node at site.fs2.sge.root/site.fs2.sge.cell = "
                    + fs2.cell().sgeRoot() + "/no-such-cell (no common/act_qmaster); no SGE commands on the head node: "
                    + "site.fs2.sge.bin = /opt/no-sge/bin has no qstat");
        }
    }
}
