package koala.scheduler.remote;

import com.jcraft.jsch.JSchChangedHostKeyException;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.JSchUnknownHostKeyException;
import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;

/**
 * What went wrong reaching a head node, in words an admin can act on: each message names the site
 * and the configuration key to look at. JSch reports most failures as a bare {@link JSchException}
 * whose message is the cause's {@code toString()}, so the cause chain and the message are both read.
 */
public final class SshErrors {
    private SshErrors() {
    }

    /** The message for a failure to connect or log in to {@code site}'s head node. */
    public static String explain(SiteConfig site, Exception e) {
        return explain(site, e, java.util.Optional.empty());
    }

    /** @param offered the host key the head node offered ("ssh-ed25519 SHA256:..."), when known */
    public static String explain(SiteConfig site, Exception e, java.util.Optional<String> offered) {
        SshConfig ssh = site.ssh().orElseThrow();
        String key = "site." + site.name() + ".ssh.";
        String at = "site " + site.name() + ": ";
        String text = String.valueOf(e.getMessage());
        if (e instanceof JSchUnknownHostKeyException) {
            return at + "the host key of " + ssh.host() + ":" + ssh.port() + " is not in " + key + "knownHosts = "
                    + ssh.knownHosts() + offered.or(() -> fingerprint(text)).map(k -> " (it offers " + k + ")").orElse("")
                    + "; check it with the cluster's admins, then add it: "
                    + "ssh-keyscan -p " + ssh.port() + " " + ssh.host() + " >> " + ssh.knownHosts();
        }
        if (e instanceof JSchChangedHostKeyException) {
            return at + "HOST KEY MISMATCH: " + ssh.host() + ":" + ssh.port() + " offers a different key than the one in "
                    + key + "knownHosts = " + ssh.knownHosts() + "; someone may be intercepting the connection, or the "
                    + "head node was reinstalled (then replace its line in that file)";
        }
        if (text.startsWith("Auth fail") || text.startsWith("Auth cancel")) {
            return at + ssh.address() + " refused the key " + key + "key = " + ssh.key() + " for " + key + "user = "
                    + ssh.user() + " (is its public key in ~" + ssh.user() + "/.ssh/authorized_keys on the head node?)";
        }
        if (text.startsWith("invalid privatekey") || has(e, FileNotFoundException.class)) {
            return at + key + "key = " + ssh.key() + ": not a usable private key (" + text
                    + "); it must be readable by the scheduler, in OpenSSH or PEM format, without a passphrase";
        }
        if (has(e, UnknownHostException.class)) {
            return at + key + "host = " + ssh.host() + ": unknown host";
        }
        if (has(e, ConnectException.class) || has(e, NoRouteToHostException.class)) {
            return at + "cannot connect to " + ssh.host() + ":" + ssh.port() + " (" + key + "host, " + key + "port): "
                    + rootMessage(e);
        }
        if (has(e, SocketTimeoutException.class) || text.startsWith("timeout")) {
            return at + ssh.host() + ":" + ssh.port() + " (" + key + "host, " + key + "port) did not answer in time";
        }
        return at + "SSH to " + ssh.address() + " failed: " + text;
    }

    /** The fingerprint in JSch's "UnknownHostKey: h. ED25519 key fingerprint is SHA256:..." */
    private static java.util.Optional<String> fingerprint(String message) {
        int at = message.indexOf(" key fingerprint is ");
        return at < 0 ? java.util.Optional.empty() : java.util.Optional.of(message.substring(message.lastIndexOf(". ", at)
                + 2, at) + " " + message.substring(at + " key fingerprint is ".length()).trim());
    }

    private static boolean has(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t) || String.valueOf(t.getMessage()).startsWith(type.getName())) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        String message = String.valueOf(t.getMessage());
        return message.substring(message.lastIndexOf(':') + 1).trim().toLowerCase(java.util.Locale.ROOT);
    }
}
