/**
 * The grid configuration and where KOALA keeps its state. {@link koala.grid.GridConfig} reads
 * the properties file (Apache Commons Configuration) into one {@link koala.grid.SiteConfig}
 * per site — its SGE cell ({@link koala.grid.CellEnvironment}), DRMAA binding
 * ({@link koala.grid.DrmaaInstall}) and, for a remote site, its head node
 * ({@link koala.grid.SshConfig}) — and gives the other keys ({@code scheduler.*},
 * {@code site.S.provisioning.*}) to whoever reads them. A value that cannot be used is a
 * {@link koala.grid.ConfigException} naming the file and the key.
 * {@link koala.grid.KoalaHome} says where the configuration, logs and runtime copy live.
 * The keys are listed in {@code docs/admin-guide.md} and, with their types and defaults, in
 * {@link koala.grid.ConfigKeys}, the catalogue from which {@link koala.grid.ConfigCheck}
 * tells unknown keys (with the nearest known one) and bad values, each at its file and line
 * ({@link koala.grid.ConfigProblem}); {@code GridConfig.load} warns of keys nobody reads.
 */
package koala.grid;
