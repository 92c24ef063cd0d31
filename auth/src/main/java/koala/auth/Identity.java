package koala.auth;

import java.util.Objects;

/** A user of the grid as KOALA knows them: their name and uid on the head node. */
public record Identity(String user, int uid) {
    public Identity {
        Objects.requireNonNull(user, "user");
        if (user.isBlank() || user.chars().anyMatch(c -> c <= ' ' || c == ':')) {
            throw new IllegalArgumentException("not a user name: '" + user + "'");
        }
    }

    @Override
    public String toString() {
        return user + " (uid " + uid + ")";
    }
}
