package koala.sge;

import koala.api.site.PilotSpec;
import koala.common.failure.InvalidField;

/** What a pilot request must satisfy before it reaches SGE, each failure naming its field. */
final class PilotSpecs {
    private PilotSpecs() {
    }

    static void validate(PilotSpec spec) {
        require(spec.name() != null && !spec.name().isBlank(), "name", "missing");
        require(spec.name().matches("[A-Za-z_][A-Za-z0-9_.\\-]*"), "name",
                "'" + spec.name() + "' is not a valid SGE job name (letters, digits, _ . -; no leading digit)");
        require(spec.command() != null && !spec.command().isBlank(), "command", "missing");
        require(spec.command().startsWith("/"), "command", "'" + spec.command() + "' must be an absolute path");
        spec.env().keySet().forEach(k -> require(k.matches("[A-Za-z_][A-Za-z0-9_]*"), "env",
                "'" + k + "' is not a variable name"));
        absolute(spec.stdout(), "stdout");
        absolute(spec.stderr(), "stderr");
        absolute(spec.workingDirectory(), "workingDirectory");
        require((spec.secret() == null) == (spec.secretFile() == null), "secretFile",
                "a secret and the file to hand it over in go together");
        require(spec.secret() == null || spec.secret().matches("[A-Za-z0-9_\\-]{1,256}"), "secret",
                "not a token (1 to 256 letters, digits, _ or -)");
        absolute(spec.secretFile(), "secretFile");
        // one word each in the native specification SgeClaim makes, the host one item of an -l list
        require(spec.needs().host() == null || spec.needs().host().matches("[A-Za-z0-9._\\-]+"), "needs.host",
                "'" + spec.needs().host() + "' is not a host name");
        require(spec.needs().account() == null || spec.needs().account().matches("\\S+"), "needs.account",
                "'" + spec.needs().account() + "' has blanks: SGE's account string is one word");
    }

    private static void absolute(String path, String field) {
        require(path == null || path.startsWith("/"), field, "'" + path + "' must be an absolute path");
    }

    private static void require(boolean ok, String field, String reason) {
        if (!ok) {
            throw new InvalidField(field, reason);
        }
    }
}
