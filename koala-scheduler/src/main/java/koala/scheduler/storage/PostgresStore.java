package koala.scheduler.storage;

/**
 * The store on a PostgreSQL server that one or more schedulers share: for a grid that outgrew one
 * head node, on a database its admins already run. The schema is Flyway's versions
 * ({@code koala/scheduler/storage/postgresql/V*.sql}), applied on every open; its history is kept in
 * {@code koala_schema_history}, as on H2.
 */
public final class PostgresStore extends SqlStore {
    private final String url;
    private final String user;
    private final String password;

    private PostgresStore(PostgresDatabase db, String url, String user, String password) {
        super(db);
        this.url = url;
        this.user = user;
        this.password = password;
    }

    @Override
    public LeaderLease lease(java.time.Duration term) {
        return PostgresLease.open(url, user, password, term);
    }

    /**
     * Connects to {@code url} ({@code jdbc:postgresql://HOST:PORT/DATABASE}) as {@code user}, and makes
     * or brings up to date its tables.
     *
     * @throws StoreException when it cannot be reached in {@value PostgresDatabase#CONNECT_SECONDS} s, refuses
     *         the login, or its schema cannot be brought up to date
     */
    public static PostgresStore open(String url, String user, String password) {
        return new PostgresStore(PostgresDatabase.open(url, user, password, (db, timed) ->
                org.flywaydb.core.Flyway.configure(PostgresStore.class.getClassLoader())
                        .dataSource(timed, user, password)
                        .locations("classpath:koala/scheduler/storage/postgresql")
                        .table("koala_schema_history")
                        .load().migrate()), url, user, password);
    }
}
