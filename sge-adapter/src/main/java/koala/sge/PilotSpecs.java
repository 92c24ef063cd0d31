package koala.sge;

import static koala.resourcemanager.PilotRules.absolute;
import static koala.resourcemanager.PilotRules.require;

import koala.api.site.PilotSpec;
import koala.resourcemanager.PilotRules;

/** What a pilot request must satisfy before it reaches SGE, each failure naming its field. */
final class PilotSpecs {
    private PilotSpecs() {
    }

    static void validate(PilotSpec spec) {
        PilotRules.common(spec);
        require(spec.name().matches("[A-Za-z_][A-Za-z0-9_.\\-]*"), "name",
                "'" + spec.name() + "' is not a valid SGE job name (letters, digits, _ . -; no leading digit)");
        absolute(spec.stdout(), "stdout");
        absolute(spec.stderr(), "stderr");
        // one word in the native specification SgeClaim makes
        require(spec.needs().account() == null || spec.needs().account().matches("\\S+"), "needs.account",
                "'" + spec.needs().account() + "' has blanks: SGE's account string is one word");
    }
}
