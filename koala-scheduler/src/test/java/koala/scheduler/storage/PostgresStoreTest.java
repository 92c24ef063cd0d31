package koala.scheduler.storage;

import java.util.HashMap;
import java.util.Map;

/** The store on PostgreSQL: the same contract as on H2 ({@link StoreContract}), each name a database of its own. */
class PostgresStoreTest extends StoreContract {
    private final Map<String, String> databases = new HashMap<>();

    @Override
    Store open(String name) {
        return PostgresStore.open(databases.computeIfAbsent(name, n -> TestPostgres.newDatabase()), "koala",
                TestPostgres.PASSWORD);
    }
}
