package koala.resourcemanager;

import koala.api.site.PilotSpec;
import koala.common.failure.InvalidField;

/**
 * What any manager's pilot request must satisfy, each failure an {@link InvalidField} naming its field: a
 * name, an absolute command, variable names, absolute paths, a secret that is a token and goes with its file,
 * and a host that is one word. Each adapter adds its manager's own rules (job names, file name patterns).
 */
public final class PilotRules {
    private PilotRules() {
    }

    /** The rules every manager shares; {@code name}, {@code stdout} and {@code stderr} are left to the adapter. */
    public static void common(PilotSpec spec) {
        require(spec.name() != null && !spec.name().isBlank(), "name", "missing");
        require(spec.command() != null && !spec.command().isBlank(), "command", "missing");
        require(spec.command().startsWith("/"), "command", "'" + spec.command() + "' must be an absolute path");
        spec.env().keySet().forEach(k -> require(k.matches("[A-Za-z_][A-Za-z0-9_]*"), "env",
                "'" + k + "' is not a variable name"));
        absolute(spec.workingDirectory(), "workingDirectory");
        require((spec.secret() == null) == (spec.secretFile() == null), "secretFile",
                "a secret and the file to hand it over in go together");
        require(spec.secret() == null || spec.secret().matches("[A-Za-z0-9_\\-]{1,256}"), "secret",
                "not a token (1 to 256 letters, digits, _ or -)");
        absolute(spec.secretFile(), "secretFile");
        require(spec.needs().host() == null || spec.needs().host().matches("[A-Za-z0-9._\\-]+"), "needs.host",
                "'" + spec.needs().host() + "' is not a host name");
    }

    /** A path that is absolute, or absent; one line. */
    public static void absolute(String path, String field) {
        require(path == null || path.startsWith("/") && !path.contains("\n"), field,
                "'" + path + "' must be an absolute path");
    }

    public static void require(boolean ok, String field, String reason) {
        if (!ok) {
            throw new InvalidField(field, reason);
        }
    }
}
