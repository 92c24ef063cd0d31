/**
 * The local multicluster testbed: several independent SGE cells on this machine, each with its own
 * qmaster and execd, from Debian's packages ({@code SgePackages}). {@link koala.testbed.Testbed}
 * brings them up and down following a {@link koala.testbed.TestbedPlan} of
 * {@link koala.testbed.CellPlan}s, one {@code SgeCell} each, records what it started
 * ({@link koala.testbed.TestbedRecord}), reports {@link koala.testbed.CellStatus}es and writes the
 * grid configuration ({@code GridConfigFile}). {@code WanDelay} delays the traffic between cells as
 * over a wide-area link, following the routes {@code WanLinks} plans. {@link koala.testbed.LocalUser} plays a
 * cell's local user with plain {@code qsub}; {@link koala.testbed.Shell} runs a system command with a
 * cell's environment, as another account (the benchmarks of the module {@code experiments}, which time
 * KOALA against plain {@code qsub} on the testbed, use it too). See "The local multicluster testbed" in
 * {@code docs/admin-guide.md}.
 */
package koala.testbed;
