/**
 * The scheduler's configuration as a whole: {@link koala.scheduler.config.SchedulerConfigCheck}
 * checks a file as {@code koala config check} does (the catalogue's checks of
 * {@code koala.grid.ConfigCheck}, then the scheduler's own settings, the sharing and the
 * provisioning policies); {@link koala.scheduler.config.ConfigReload} decides, as pure code, what a
 * re-read file changes in a running scheduler — refused whole, applied at once, or waiting for the
 * next start; {@link koala.scheduler.config.LogLevels} sets the loggers' levels it names. The
 * scheduler's {@code Reconfiguration} carries a decision out on its loop when the process gets
 * {@code SIGHUP}.
 */
package koala.scheduler.config;
