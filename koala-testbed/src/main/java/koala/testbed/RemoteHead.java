package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

/**
 * The head node of a remote cell as KOALA meets it: an OpenSSH server on the head node's grid
 * address that lets in the site's {@code koala} account with KOALA's key, and the site's own home
 * directories (the cell's hosts see {@code /home} from {@link #home}, not the machine's). KOALA's
 * key and the head node's known host key are kept in {@code KOALA_HOME/testbed/ssh}, readable by
 * root only.
 */
final class RemoteHead {
    private final CellPlan cell;
    private final Path cellDir;
    private final Path keys;
    private final Shell root = Shell.root();

    RemoteHead(CellPlan cell, Path cellDir, Path koalaHome) {
        this.cell = cell;
        this.cellDir = cellDir;
        this.keys = koalaHome.resolve("testbed").resolve("ssh");
    }

    /** The site's home directories, seen as {@code /home} on the cell's hosts. */
    Path home() {
        return cellDir.resolve("home");
    }

    Path key() {
        return keys.resolve("koala-" + cell.name());
    }

    Path knownHosts() {
        return keys.resolve("known_hosts-" + cell.name());
    }

    private Path sshdDir() {
        return cellDir.resolve("sshd");
    }

    /** Keys, the account's home on the site and the server's configuration, made when missing. */
    List<String> prepare(String account) {
        try {
            Files.createDirectories(keys, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.createDirectories(sshdDir(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            boolean made = false;
            if (!Files.exists(key())) {
                root.check("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "koala@" + TestbedPlan.KOALA_NAME, "-f",
                        key().toString());
                made = true;
            }
            if (!Files.exists(sshdDir().resolve("host_key"))) {
                root.check("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", cell.head(), "-f",
                        sshdDir().resolve("host_key").toString());
                made = true;
            }
            String hostKey = Files.readString(sshdDir().resolve("host_key.pub")).trim();
            Files.writeString(knownHosts(), cell.head() + " " + hostKey + "\n");
            Path userHome = home().resolve(account);
            Path ssh = userHome.resolve(".ssh");
            Files.createDirectories(ssh);
            Files.writeString(ssh.resolve("authorized_keys"), Files.readString(Path.of(key() + ".pub")));
            root.check("chown", "-R", account + ":" + account, userHome.toString());
            root.check("chmod", "700", userHome.toString(), ssh.toString());
            root.check("chmod", "600", ssh.resolve("authorized_keys").toString());
            Files.writeString(sshdDir().resolve("sshd_config"), config(account));
            Files.createDirectories(Path.of("/run/sshd")); // its privilege separation directory
            return made ? List.of(cell.name() + ": made SSH keys for KOALA and " + cell.head()) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String config(String account) {
        return String.join("\n",
                "# the SSH server of " + cell.head() + ", written by bin/koala testbed up",
                "ListenAddress 0.0.0.0",
                "Port 22",
                "HostKey " + sshdDir().resolve("host_key"),
                "PidFile " + sshdDir().resolve("sshd.pid"),
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM yes", // Debian locks the account's password; PAM lets key logins in regardless
                "AllowUsers " + account,
                "AllowTcpForwarding yes",
                "Subsystem sftp internal-sftp",
                "LogLevel VERBOSE", "");
    }

    Optional<Long> sshdPid() {
        return PidFile.daemon(sshdDir().resolve("sshd.pid"), "sshd");
    }

    /** Stops the head node's SSH server if it runs (TERM, then KILL after {@code grace}); its pid, if it ran. */
    Optional<Long> stopSshd(koala.common.time.Poll poll, java.time.Duration grace) {
        Optional<ProcessHandle> sshd = sshdPid().flatMap(ProcessHandle::of);
        sshd.ifPresent(p -> {
            p.destroy();
            if (!poll.until(() -> !p.isAlive(), grace)) {
                p.destroyForcibly();
                poll.until(() -> !p.isAlive(), java.time.Duration.ofSeconds(5));
            }
        });
        return sshd.map(ProcessHandle::pid);
    }

    /** Starts the head node's SSH server (it daemonizes). */
    void startSshd(Progress progress) {
        progress.step(cell.name() + ": starting sshd on " + cell.head() + " (port 22)");
        Hosts.shell(cell.head()).check("/usr/sbin/sshd", "-f", sshdDir().resolve("sshd_config").toString(),
                "-E", sshdDir().resolve("sshd.log").toString());
    }
}
