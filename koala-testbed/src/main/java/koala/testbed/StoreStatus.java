package koala.testbed;

/**
 * The scheduler's store as {@code testbed status} shows it: the scheduler's own H2 file, or the testbed's
 * PostgreSQL on the KOALA host with whether it runs.
 *
 * @param kind      {@code h2} or {@code postgresql}
 * @param version   PostgreSQL's major version ({@code "15"}), null for H2 or when PostgreSQL is not installed
 * @param address   where schedulers reach it, null for H2
 * @param port      its TCP port, null for H2
 * @param database  the scheduler's database on it, null for H2
 * @param directory the cluster's directory on the KOALA host, null for H2
 * @param running   whether the server runs, null for H2
 */
public record StoreStatus(String kind, String version, String address, Integer port, String database, String directory,
                          Boolean running) {
    /** The scheduler's own H2 file: nothing of the testbed's to run. */
    public static final StoreStatus H2 = new StoreStatus("h2", null, null, null, null, null, null);

    /** Up when there is no server to run, or it runs. */
    public boolean up() {
        return running == null || running;
    }

    /**
     * One line: {@code postgresql 15 at 198.18.0.1:5432 (running)}, or {@code h2 (the scheduler's own file)}.
     */
    public String describe() {
        if (address == null) {
            return kind + " (the scheduler's own file)";
        }
        return kind + (version == null ? "" : " " + version) + " at " + address + ":" + port + " ("
                + (Boolean.TRUE.equals(running) ? "running" : version == null ? "stopped: PostgreSQL is not installed"
                : "stopped") + ")";
    }
}
