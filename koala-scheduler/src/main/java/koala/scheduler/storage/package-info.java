/**
 * What the scheduler keeps across a crash, behind narrow interfaces, one per entity as Aurora's stores
 * ({@link koala.scheduler.storage.JobStore} for jobs as {@link koala.scheduler.storage.JobRecord}s,
 * {@link koala.scheduler.storage.NodeStore} for their nodes and spans,
 * {@link koala.scheduler.storage.HistoryStore} for their transitions,
 * {@link koala.scheduler.storage.AllocationStore} for allocations' grows and roles,
 * {@link koala.scheduler.storage.AccountingStore} for usage records and worker tallies,
 * {@link koala.scheduler.storage.AgentStore} for the agents' addresses,
 * {@link koala.scheduler.storage.AnswerStore} for the answers to named requests,
 * {@link koala.scheduler.storage.SchedulerStore} for the pilot tag and named values, and the
 * FrameworkJobManager's {@code FrameworkStore}), which {@link koala.scheduler.storage.Store} puts
 * together with the retention, so that the scheduling code never sees a database.
 *
 * <p>{@link koala.scheduler.storage.SqlStore} is the store on a SQL database: one {@code Sql*} class per
 * entity with its tables' SQL, on one {@code SqlDatabase} that holds the connection, the units of work
 * and the prepared statements; what the SQL says differently on each database is a {@code SqlDialect}.
 * {@link koala.scheduler.storage.H2Store} opens it on an embedded H2 file ({@code H2Database}: its
 * tidying, backups), the default; {@link koala.scheduler.storage.PostgresStore} on a PostgreSQL server
 * ({@code PostgresDatabase}: time-outs, a lost connection opened again). The schema is Flyway's versions
 * of each ({@code koala/scheduler/storage/h2/V*.sql}, {@code .../postgresql/V*.sql});
 * {@link koala.scheduler.storage.StoreCopy} moves a state from one to the other. A write
 * is durable when the call returns, or, inside a {@link koala.scheduler.storage.UnitOfWork}, when the
 * unit does, together with the unit's other writes; a refused one is a
 * {@link koala.scheduler.storage.StoreException}.
 */
package koala.scheduler.storage;
