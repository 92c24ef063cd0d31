package koala.auth;

/** A token that does not prove who sent it: malformed, signed with another key, or expired; the message says which. */
public final class TokenRefused extends Exception {
    public TokenRefused(String reason) {
        super(reason);
    }
}
