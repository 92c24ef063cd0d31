package koala.scheduler.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Who is an admin: root, and the members of the group named by {@code admin.group} (default
 * {@code koala-admin}) in {@code /etc/group} — listed as members, or with it as their primary
 * group. The file is read at each question, so adding a user to the group takes effect at once.
 * (Groups served by LDAP or NIS and not in {@code /etc/group} are not seen.)
 */
public final class Admins {
    private final String group;
    private final Path etcGroup;
    private final Path etcPasswd;

    public Admins(String group, Path etcGroup, Path etcPasswd) {
        this.group = group;
        this.etcGroup = etcGroup;
        this.etcPasswd = etcPasswd;
    }

    public static Admins of(String group) {
        return new Admins(group, Path.of("/etc/group"), Path.of("/etc/passwd"));
    }

    public String group() {
        return group;
    }

    public boolean isAdmin(String user, int uid) {
        if (uid == 0) {
            return true;
        }
        Optional<String[]> entry = lines(etcGroup).stream().map(l -> l.split(":", -1))
                .filter(f -> f.length >= 4 && f[0].equals(group)).findFirst();
        if (entry.isEmpty()) {
            return false;
        }
        if (Arrays.asList(entry.get()[3].split(",")).contains(user)) {
            return true;
        }
        String gid = entry.get()[2];
        return lines(etcPasswd).stream().map(l -> l.split(":", -1))
                .anyMatch(f -> f.length >= 4 && f[0].equals(user) && f[3].equals(gid));
    }

    /** The uid of local account {@code user}, from the password file. */
    public OptionalInt uid(String user) {
        return lines(etcPasswd).stream().map(l -> l.split(":", -1))
                .filter(f -> f.length >= 3 && f[0].equals(user) && f[2].matches("[0-9]{1,9}"))
                .mapToInt(f -> Integer.parseInt(f[2])).findFirst();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
