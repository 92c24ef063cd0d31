/**
 * The framework runner (Schedd + Deployd) and the node launcher that each pilot job runs.
 * Filled in by the framework-runner issue.
 */
package koala.runner;
