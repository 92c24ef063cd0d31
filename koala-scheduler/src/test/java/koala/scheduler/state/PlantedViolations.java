package koala.scheduler.state;

/**
 * Violations planted for {@code GuardsTest}: each of the architecture rules must find the one meant
 * for it. Test code, never imported by the rules' own run.
 */
final class PlantedViolations {
    private PlantedViolations() {
    }

    /** A lifecycle that reads the clock. */
    static java.time.Instant clockRead() {
        return java.time.Instant.now();
    }

    /** A lifecycle that talks to a database. */
    static java.sql.Connection database() {
        return null;
    }

    /** One half of a package cycle: state needs claiming, whose half needs state. */
    static Object cycle() {
        return koala.scheduler.claiming.PlantedCycle.class;
    }
}
