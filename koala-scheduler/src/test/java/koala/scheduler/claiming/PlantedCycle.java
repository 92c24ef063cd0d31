package koala.scheduler.claiming;

/** The other half of the package cycle planted for {@code GuardsTest}. */
public final class PlantedCycle {
    private PlantedCycle() {
    }

    static Object back() {
        return koala.scheduler.state.JobState.QUEUED;
    }
}
