package koala.provisioning;

import java.util.Objects;

/**
 * Where an effective setting came from, for {@code koala config}: {@link #label()} is "default",
 * "site fs0", "site fs0 cap" or "jdf"; the note, when there is one, says more ("jdf asked 30",
 * "n = 2 for proactive").
 *
 * @param site the site whose configuration gave the value; empty for DEFAULT and JDF
 */
public record Origin(Kind kind, String site, String note) {
    public enum Kind {
        /** The built-in default (the paper's). */
        DEFAULT,
        /** The site's configured default. */
        SITE,
        /** The site's F_max (weight, minShare), lower than the JDF's: a ceiling the JDF cannot exceed. */
        SITE_CAP,
        /** The JDF's own value. */
        JDF
    }

    public Origin {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(note, "note");
    }

    public static Origin builtIn(String note) {
        return new Origin(Kind.DEFAULT, "", note);
    }

    public static Origin site(String site) {
        return new Origin(Kind.SITE, site, "");
    }

    public static Origin siteCap(String site, int jdfAsked) {
        return siteCap(site, String.valueOf(jdfAsked));
    }

    /** The site's value capped what the JDF asked, written as the setting is ("2.5"). */
    public static Origin siteCap(String site, String jdfAsked) {
        return new Origin(Kind.SITE_CAP, site, "jdf asked " + jdfAsked);
    }

    public static Origin jdf() {
        return new Origin(Kind.JDF, "", "");
    }

    /** "default", "site fs0", "site fs0 cap" or "jdf". */
    public String label() {
        return switch (kind) {
            case DEFAULT -> "default";
            case SITE -> "site " + site;
            case SITE_CAP -> "site " + site + " cap";
            case JDF -> "jdf";
        };
    }

    /** The label and the note: "site fs0 cap (jdf asked 30)". */
    @Override
    public String toString() {
        return note.isEmpty() ? label() : label() + " (" + note + ")";
    }
}
