package koala.http;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Who is at the other end of a Unix domain socket, as the kernel says ({@code SO_PEERCRED}): the
 * user and group of the process that connected. Nothing the caller sends can change it, so a
 * server may trust it the way {@code sshd} trusts a login.
 */
public record PeerCredentials(int uid, int gid, String user, String group) {

    /** The credentials of the process connected to {@code channel}, if it is a Unix domain socket. */
    static Optional<PeerCredentials> of(SocketChannel channel) {
        try {
            if (!channel.supportedOptions().contains(ExtendedSocketOptions.SO_PEERCRED)) {
                return Optional.empty();
            }
            UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return Optional.of(new PeerCredentials(id(peer.user()), id(peer.group()), peer.user().getName(),
                    peer.group().getName()));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * The numeric id behind a principal the JDK made from a kernel uid or gid. The JDK's Unix
     * principals are equal exactly when their ids are and use the id as their hash code; that is
     * the only public way to the number (the name may be the number itself when no user has it).
     */
    private static int id(UserPrincipal principal) {
        if (!principal.getClass().getName().startsWith("sun.nio.fs.UnixUserPrincipals$")) {
            throw new UnsupportedOperationException("not a Unix principal: " + principal.getClass().getName());
        }
        return principal.hashCode();
    }

    @Override
    public String toString() {
        return user + " (uid " + uid + ", gid " + gid + ")";
    }
}
