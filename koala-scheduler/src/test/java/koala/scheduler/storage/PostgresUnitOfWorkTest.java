package koala.scheduler.storage;

/** The units of work of {@link UnitOfWorkTest} on PostgreSQL. */
class PostgresUnitOfWorkTest extends UnitOfWorkTest {
    @Override
    SqlStore open() {
        return PostgresStore.open(TestPostgres.newDatabase(), "koala", TestPostgres.PASSWORD);
    }
}
