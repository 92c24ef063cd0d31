/**
 * The grid configuration and where KOALA keeps its state. {@link koala.common.grid.GridConfig} reads
 * the properties file (Apache Commons Configuration) into one {@link koala.common.grid.SiteConfig}
 * per site — its SGE cell ({@link koala.common.grid.CellEnvironment}), DRMAA binding
 * ({@link koala.common.grid.DrmaaInstall}) and, for a remote site, its head node
 * ({@link koala.common.grid.SshConfig}) — and gives the other keys ({@code scheduler.*},
 * {@code site.S.provisioning.*}) to whoever reads them. A value that cannot be used is a
 * {@link koala.common.grid.ConfigException} naming the file and the key.
 * {@link koala.common.grid.KoalaHome} says where the configuration, logs and runtime copy live.
 * The keys are listed in {@code docs/admin-guide.md} and, with their types and defaults, in
 * {@link koala.common.grid.ConfigKeys}, the catalogue from which {@link koala.common.grid.ConfigCheck}
 * tells unknown keys (with the nearest known one) and bad values, each at its file and line
 * ({@link koala.common.grid.ConfigProblem}); {@code GridConfig.load} warns of keys nobody reads.
 */
package koala.common.grid;
