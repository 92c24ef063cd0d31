package koala.http;

import java.net.SocketAddress;
import java.util.Optional;

/**
 * The other end of a request's connection: its address and, over a Unix domain socket, the
 * kernel-verified user ({@link PeerCredentials}). Over TCP there is no user: whoever calls there
 * must prove who they are some other way (a bearer token, {@link Guard#bearer(String)}).
 */
public record Peer(SocketAddress address, Optional<PeerCredentials> credentials) {
    /** For requests not made through a server (tests of handlers). */
    public static final Peer UNKNOWN = new Peer(null, Optional.empty());

    public static Peer network(SocketAddress address) {
        return new Peer(address, Optional.empty());
    }

    public static Peer unix(SocketAddress address, PeerCredentials credentials) {
        return new Peer(address, Optional.of(credentials));
    }

    @Override
    public String toString() {
        return credentials.map(c -> "unix socket peer " + c).orElse(String.valueOf(address));
    }
}
